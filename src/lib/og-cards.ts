import type { Site } from '../../functions/config/site.ts';
import { domainLabel } from '../../functions/projects/project-markdown.ts';
import type { Project } from '../../functions/projects/schema.ts';
import type { OgCard } from './og-image.ts';

/** The site's card: who, what they do, where, and the address it is shared from. */
export function siteCard(site: Site, origin: string): OgCard {
  return {
    eyebrow: new URL(origin).host,
    title: site.name,
    summary: site.tagline,
    facts: site.location ? [site.location] : [],
  };
}

/** A project's card: the facts its page shows under the title (domain, year, stack). */
export function projectCard(project: Project, site: Site): OgCard {
  return {
    eyebrow: site.name,
    title: project.title,
    summary: project.description,
    facts: [`${domainLabel(project.domain)} · ${project.year}`, project.stack.join(' · ')],
  };
}
