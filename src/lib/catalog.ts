import { getCollection } from 'astro:content';
import { loadConfig } from '../../functions/config/env.ts';
import { Catalog, type ProjectSource } from '../../functions/projects/catalog.ts';
import type { ProjectRecord } from '../../functions/projects/schema.ts';

/** The project sources as the build sees them: front matter, slug (the file name) and Markdown. */
export async function projectSources(): Promise<ProjectSource[]> {
  const entries = await getCollection('projects');
  return entries.map((entry) => ({ ...entry.data, slug: entry.id, markdown: entry.body ?? '' }));
}

let catalog: Promise<Catalog> | undefined;

/** The same Catalog (and so the same order and filters) the API serves, for the pages. */
export function buildCatalog(): Promise<Catalog> {
  catalog ??= projectSources().then((sources) => new Catalog(sources, loadConfig().siteUrl));
  return catalog;
}

/** One static path per project (`[slug]` routes: its twin, its Open Graph image). */
export async function projectSlugPaths(): Promise<{ params: { slug: string } }[]> {
  return (await buildCatalog()).records.map(({ project }) => ({ params: { slug: project.slug } }));
}

/** The project a `[slug]` route was built for; a slug the build did not list is a bug. */
export async function projectAt(slug: string | undefined): Promise<ProjectRecord> {
  const record = (await buildCatalog()).get(slug ?? '');
  if (record === undefined) throw new Error(`No project ${slug}`);
  return record;
}

export { domainLabel } from '../../functions/projects/project-markdown.ts';
export { stackSlug } from './stack-slug.ts';
