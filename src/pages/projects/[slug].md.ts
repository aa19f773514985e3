import type { APIRoute, GetStaticPaths } from 'astro';
import { projectAt, projectSlugPaths } from '../../lib/catalog.ts';
import { projectAsMarkdown } from '../../../functions/projects/project-markdown.ts';
import { loadConfig } from '../../../functions/config/env.ts';
import { MARKDOWN } from '../../../functions/site/markdown-twin.ts';
import { markdownTwinText } from '../../../functions/site/twin-text.ts';
import { textResponse } from '../../lib/site-documents.ts';

/** Each project page as Markdown at /projects/<slug>.md. */
export const getStaticPaths = projectSlugPaths satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => {
  const record = await projectAt(params.slug);
  const twin = markdownTwinText(projectAsMarkdown(record), loadConfig().siteUrl, `/projects/${record.project.slug}`);
  return textResponse(twin, MARKDOWN);
};
