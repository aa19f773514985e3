import type { APIRoute } from 'astro';
import { loadConfig } from '../../../functions/config/env.ts';
import { loadSite } from '../../../functions/config/site.ts';
import { siteCard } from '../../lib/og-cards.ts';
import { renderOgImage } from '../../lib/og-image.ts';

/** The site's Open Graph image, rendered once at build. */
export const GET: APIRoute = async () => {
  const png = await renderOgImage(siteCard(loadSite(), loadConfig().siteUrl));
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
