import type { Project } from '../../functions/projects/schema.ts';
import { domainLabel } from '../../functions/projects/project-markdown.ts';
import type { Crumb } from './structured-data.ts';

/**
 * Breadcrumb trails, from the top of the site down to the page itself. A page renders its trail
 * (components/Breadcrumbs.astro) and publishes the same trail as a BreadcrumbList.
 */

const PROJECTS: Crumb = { name: 'Projects', path: '/' };

export function projectTrail(project: Project): Crumb[] {
  return [PROJECTS, { name: domainLabel(project.domain), path: `/domains/${project.domain}` }, { name: project.title }];
}

export function listingTrail(heading: string): Crumb[] {
  return [PROJECTS, { name: heading }];
}

/** A nested doc (`developers/cli`) sits under the doc of its folder, when there is one. */
export function docTrail(
  doc: { slug: string; title: string },
  docs: readonly { slug: string; title: string }[],
): Crumb[] {
  const parentSlug = doc.slug.includes('/') ? doc.slug.slice(0, doc.slug.lastIndexOf('/')) : undefined;
  const parent = docs.find((candidate) => candidate.slug === parentSlug);
  return parent === undefined ? [] : [{ name: parent.title, path: `/${parent.slug}` }, { name: doc.title }];
}
