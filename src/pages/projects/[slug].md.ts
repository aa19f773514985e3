import type { APIRoute, GetStaticPaths } from 'astro';
import { buildCatalog } from '../../lib/catalog.ts';
import { projectAsMarkdown } from '../../../functions/projects/project-markdown.ts';
import { loadConfig } from '../../../functions/config/env.ts';
import { MARKDOWN } from '../../../functions/pages/markdown-twin.ts';
import { markdownTwinText } from '../../../functions/pages/twin-text.ts';
import { textResponse } from '../../lib/site-documents.ts';

/** Each project page as Markdown at /projects/<slug>.md. */
export const getStaticPaths = (async () => {
  const catalog = await buildCatalog();
  return catalog.records.map(({ project }) => ({ params: { slug: project.slug } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => {
  const record = (await buildCatalog()).get(params.slug ?? '');
  if (record === undefined) throw new Error(`No project ${params.slug}`);
  const twin = markdownTwinText(projectAsMarkdown(record), loadConfig().siteUrl, `/projects/${record.project.slug}`);
  return textResponse(twin, MARKDOWN);
};
