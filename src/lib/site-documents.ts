import { loadConfig } from '../../functions/config/env.ts';
import { withLlmsTxtPointer } from '../../functions/pages/llms-txt-pointer.ts';
import { MARKDOWN } from '../../functions/pages/markdown-twin.ts';
import { buildCatalog } from './catalog.ts';
import { loadDocs } from './docs.ts';

/** An absolute URL on the public site. */
export function absolute(path: string): string {
  return `${loadConfig().siteUrl}${path}`;
}

/** A text response with an exact media type (the production server keeps it by extension). */
export function textResponse(body: string, mediaType: string): Response {
  return new Response(body, { headers: { 'content-type': mediaType } });
}

/** A page's Markdown twin as served: the pointer to llms.txt after its title, as text/markdown. */
export function markdownResponse(markdown: string): Response {
  return textResponse(withLlmsTxtPointer(markdown, loadConfig().siteUrl), MARKDOWN);
}

/** Every page for people, with its last change: the sitemap and the link checks read this list. */
export async function sitePages(): Promise<{ path: string; lastmod: string | null }[]> {
  const catalog = await buildCatalog();
  const newest =
    catalog.records
      .map((r) => r.project.updated)
      .filter((d): d is string => d !== null)
      .sort()
      .at(-1) ?? null;
  const pages = [
    { path: '/', lastmod: newest },
    ...catalog.records.map(({ project }) => ({ path: `/projects/${project.slug}`, lastmod: project.updated })),
    ...catalog.facets('domain').map(({ value }) => ({ path: `/domains/${value}`, lastmod: newest })),
    { path: '/contact', lastmod: null },
    ...(await loadDocs()).map((doc) => ({ path: `/${doc.slug}`, lastmod: null })),
  ];
  return pages;
}
