import type { APIRoute } from 'astro';
import { buildCatalog } from '../lib/catalog.ts';
import { loadSite } from '../../functions/config/site.ts';
import { DEVELOPER_LINKS, developerLinkInMarkdown } from '../lib/home-page.ts';
import { facetsAsMarkdown, projectItem } from '../lib/listing-pages.ts';
import { absolute, markdownResponse } from '../lib/site-documents.ts';

/** The home page as Markdown (/index.md, and / with Accept: text/markdown). */
export const GET: APIRoute = async () => {
  const catalog = await buildCatalog();
  const site = loadSite();
  const lines = [
    `# ${site.name}`,
    '',
    `> ${site.tagline}`,
    '',
    site.description,
    '',
    '## Projects',
    '',
    ...catalog.records.map(({ project }) => projectItem(project)),
    '',
    facetsAsMarkdown(catalog),
    '## For developers and agents',
    '',
    ...DEVELOPER_LINKS.map((link) => `- [${link.label}](${absolute(developerLinkInMarkdown(link))}): ${link.note}`),
    '',
    '## Elsewhere',
    '',
    ...site.links.map((link) => `- [${link.label}](${link.url})`),
    '',
  ];
  return markdownResponse(lines.join('\n'));
};
