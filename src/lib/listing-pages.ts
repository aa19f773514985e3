import type { Catalog } from '../../functions/projects/catalog.ts';
import type { Project } from '../../functions/projects/schema.ts';
import { markdownTwinPath } from '../../functions/site/markdown-twin.ts';
import { buildCatalog, domainLabel, stackSlug } from './catalog.ts';
import { absolute } from './site-documents.ts';

/**
 * A page that lists projects (a domain, a technology): what its HTML page (src/pages/domains,
 * src/pages/stack) and its Markdown twin both show, computed once here.
 */
export interface ListingPage {
  /** The page's clean URL, e.g. `/domains/web`. */
  path: string;
  title: string;
  description: string;
  /** The H1 without the count, which each rendering adds in its own way. */
  heading: string;
  projects: readonly Project[];
  catalog: Catalog;
}

export async function domainListing(domain: string): Promise<ListingPage> {
  const catalog = await buildCatalog();
  const projects = catalog.filter({ domain });
  const label = domainLabel(domain);
  return {
    path: `/domains/${domain}`,
    title: `${label} projects`,
    description: `${count(projects)} ${label.toLowerCase()} ${projectWord(projects)}.`,
    heading: label,
    projects,
    catalog,
  };
}

export async function stackListing(name: string): Promise<ListingPage> {
  const catalog = await buildCatalog();
  const projects = catalog.filter({ stack: name });
  return {
    path: `/stack/${stackSlug(name)}`,
    title: `Projects built with ${name}`,
    description: `${count(projects)} ${projectWord(projects)} built with ${name}.`,
    heading: `Built with ${name}`,
    projects,
    catalog,
  };
}

const count = (projects: readonly Project[]) => projects.length;
const projectWord = (projects: readonly Project[]) => (projects.length === 1 ? 'project' : 'projects');

/** A listing page as Markdown: its heading, its projects, and the other listings to browse. */
export function listingAsMarkdown(page: ListingPage): string {
  return [
    `# ${page.heading} (${page.projects.length})`,
    '',
    page.description,
    '',
    '## Projects',
    '',
    ...page.projects.map(projectItem),
    '',
    facetsAsMarkdown(page.catalog),
  ].join('\n');
}

/** One project as a Markdown list item linking its twin, as the home page and the listings show it. */
export function projectItem(project: Project): string {
  return `- [${project.title}](${twinUrl(`/projects/${project.slug}`)}) (${domainLabel(project.domain)}, ${project.year}): ${project.description}`;
}

/** The domains and technologies to browse by, with counts, as the Facets component shows them. */
export function facetsAsMarkdown(catalog: Catalog): string {
  const item = (path: string, label: string, count: number) => `- [${label}](${twinUrl(path)}) (${count})`;
  return [
    '## By domain',
    '',
    ...catalog.facets('domain').map(({ value, count }) => item(`/domains/${value}`, domainLabel(value), count)),
    '',
    '## By technology',
    '',
    ...catalog.facets('stack').map(({ value, count }) => item(`/stack/${stackSlug(value)}`, value, count)),
    '',
  ].join('\n');
}

/** The absolute URL of a page's Markdown twin: links in a twin lead to twins. */
function twinUrl(path: string): string {
  return absolute(markdownTwinPath(path));
}
