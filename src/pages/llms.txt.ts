import type { APIRoute } from 'astro';
import { OPERATIONS } from '../../functions/operations.ts';
import { buildCatalog } from '../lib/catalog.ts';
import { loadDocs } from '../lib/docs.ts';
import { absolute, site, textResponse } from '../lib/site-documents.ts';

/** /llms.txt per llmstxt.org: an H1, a one-line summary, then H2 sections of links only. */
export const GET: APIRoute = async () => {
  const docs = await loadDocs();
  const catalog = await buildCatalog();
  const link = (title: string, path: string, note: string) => `- [${title}](${absolute(path)}): ${note}`;
  const lines = [
    `# ${site.name}`,
    '',
    `> ${site.tagline} A portfolio of ${catalog.records.length} projects with a public read API and a contact endpoint.`,
    '',
    '## Docs',
    ...docs.filter((doc) => !doc.optional).map((doc) => link(doc.title, `/${doc.path}.md`, doc.description)),
    '',
    '## API',
    link('OpenAPI description (JSON)', '/openapi.json', 'the full contract, OpenAPI 3.0.3'),
    link('OpenAPI description (YAML)', '/openapi.yaml', 'the same document as YAML'),
    link('API catalog', '/.well-known/api-catalog', 'RFC 9727 linkset of the API and its documents'),
    ...Object.entries(OPERATIONS).map(([id, op]) => link(`${id}: ${op.method} ${op.path}`, `/developers#${id}`, op.summary)),
    '',
    '## Projects',
    ...catalog.records.map(({ project }) => link(project.title, `/projects/${project.slug}.md`, project.description)),
    '',
    '## Optional',
    link('Full text', '/llms-full.txt', 'every document and project in one file'),
    link('Portfolio as JSON', '/portfolio.json', 'all projects with their Markdown'),
    ...docs.filter((doc) => doc.optional).map((doc) => link(doc.title, `/${doc.path}.md`, doc.description)),
    '',
  ];
  return textResponse(lines.join('\n'), 'text/plain; charset=utf-8');
};
