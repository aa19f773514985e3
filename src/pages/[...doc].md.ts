import type { APIRoute, GetStaticPaths } from 'astro';
import { docAsMarkdown, loadDocs, type Doc } from '../lib/docs.ts';
import { absoluteMarkdownLinks } from '../../functions/pages/absolute-links.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { markdownResponse } from '../lib/site-documents.ts';

/** Every doc as Markdown at /<path>.md, the convention agents look for. */
export const getStaticPaths = (async () => {
  const docs = await loadDocs();
  return docs.map((doc) => ({ params: { doc: doc.slug }, props: { doc } }));
}) satisfies GetStaticPaths;

/** Links are absolute, and lead to Markdown twins: the twin is read away from the site. */
export const GET: APIRoute<{ doc: Doc }> = ({ props }) =>
  markdownResponse(absoluteMarkdownLinks(docAsMarkdown(props.doc), loadConfig().siteUrl, `/${props.doc.slug}`));
