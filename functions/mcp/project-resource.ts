// A project's resource on the product server (/mcp): its write-up as Markdown at the URL of the
// project page's Markdown twin. The resource list, the URI template and the resource_link
// blocks of tool results that name projects are all made here, so they always agree.
import type { ResourceLink } from '@modelcontextprotocol/server';
import { slugParameter, type Project } from '../projects/schema.ts';

export const PROJECT_RESOURCE_MIME = 'text/markdown';

/** The URI of a project's resource; with slug `{slug}`, the server's URI template. */
export function projectResourceUri(siteUrl: string, slug: string): string {
  return `${siteUrl}/projects/${slug}.md`;
}

/** A project as resources/list names it. */
export function projectResource(siteUrl: string, project: Pick<Project, 'slug' | 'title' | 'description'>) {
  return {
    uri: projectResourceUri(siteUrl, project.slug),
    name: project.slug,
    title: project.title,
    description: project.description,
    mimeType: PROJECT_RESOURCE_MIME,
  };
}

type LinkAnnotations = NonNullable<ResourceLink['annotations']>;

/**
 * Who a link is for (MCP 2025-11-25 Annotations): a project the caller asked for by name is
 * worth showing the user; one among a list or search results is for the assistant to pick from.
 */
export const ASKED_FOR: LinkAnnotations = { audience: ['user', 'assistant'], priority: 0.9 };
export const AMONG_OTHERS: LinkAnnotations = { audience: ['assistant'], priority: 0.5 };

/** A resource_link block pointing at a project's resource, which resources/read returns. */
export function projectLink(
  siteUrl: string,
  project: Pick<Project, 'slug' | 'title'> & { description?: string },
  annotations: LinkAnnotations,
): ResourceLink {
  return {
    type: 'resource_link',
    uri: projectResourceUri(siteUrl, project.slug),
    name: project.slug,
    title: project.title,
    ...(project.description === undefined ? {} : { description: project.description }),
    mimeType: PROJECT_RESOURCE_MIME,
    annotations,
  };
}

/** The slug of a project page URL of this site (a search result's url), or undefined for any other URL. */
export function projectSlugOf(siteUrl: string, url: string): string | undefined {
  const prefix = `${siteUrl}/projects/`;
  if (!url.startsWith(prefix)) return undefined;
  const slug = url.slice(prefix.length);
  return slugParameter.safeParse(slug).success ? slug : undefined;
}
