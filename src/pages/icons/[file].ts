import type { APIRoute, GetStaticPaths } from 'astro';
import { ICON_SIZES, iconPath, type IconSize } from '../../../functions/site/site-icons.ts';
import { siteIconPng } from '../../lib/site-icon-png.ts';

/** One PNG per size of the site icon (functions/site/site-icons.ts), rendered once at build. */
export const getStaticPaths = (() =>
  ICON_SIZES.map((size) => ({
    params: { file: iconPath(size).split('/').pop()! },
    props: { size },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ size: IconSize }> = async ({ props }) =>
  new Response(new Uint8Array(await siteIconPng(props.size)), { headers: { 'Content-Type': 'image/png' } });
