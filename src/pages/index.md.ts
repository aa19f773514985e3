import type { APIRoute } from 'astro';
import { buildCatalog, domainLabel } from '../lib/catalog.ts';
import { loadSite } from '../../functions/config/site.ts';
import { absolute, textResponse } from '../lib/site-documents.ts';

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
    ...catalog.records.map(
      ({ project }) =>
        `- [${project.title}](${absolute(`/projects/${project.slug}`)}) (${domainLabel(project.domain)}, ${project.year}): ${project.description}`,
    ),
    '',
    '## Elsewhere',
    '',
    ...site.links.map((link) => `- [${link.label}](${link.url})`),
    '',
  ];
  return textResponse(lines.join('\n'), 'text/markdown; charset=utf-8');
};
