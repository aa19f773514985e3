import type { APIRoute } from 'astro';
import { buildCatalog } from '../lib/catalog.ts';
import { docAsMarkdown, loadDocs } from '../lib/docs.ts';
import { projectAsMarkdown } from '../../functions/projects/project-markdown.ts';
import { loadSite } from '../../functions/config/site.ts';
import { textResponse } from '../lib/site-documents.ts';

/** /llms-full.txt: the full text of every document and project, for agents that read once. */
export const GET: APIRoute = async () => {
  const docs = await loadDocs();
  const catalog = await buildCatalog();
  const site = loadSite();
  const parts = [
    `# ${site.name}\n\n> ${site.tagline}\n`,
    ...docs.map(docAsMarkdown),
    ...catalog.records.map((record) => projectAsMarkdown(record)),
  ];
  return textResponse(parts.join('\n---\n\n'), 'text/plain; charset=utf-8');
};
