import { markdownTwinText } from '../pages/twin-text.ts';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Catalog } from '../projects/catalog.ts';
import type { ProjectRecord } from '../projects/schema.ts';
import { projectAsMarkdown } from '../projects/project-markdown.ts';
import { resourceNotFound } from './resource-not-found.ts';
import { PRODUCT_TOOLS } from './product-tools.ts';
import { registerServerCardResource, type CardReader } from './server-card-resource.ts';
import { newMcpServer } from './stateless-server.ts';
import { registerTools, type ToolContext } from './tool-registry.ts';

const MARKDOWN = 'text/markdown';

/** What an agent should know before its first call; sent in the initialize result. */
export const PRODUCT_INSTRUCTIONS = [
  "This server is the portfolio's product API for agents: projects, search, contact and jobs.",
  "Start with search (free text) or list_projects (filter by domain or stack), then get_project or read the project's resource for its full write-up; compare_projects lays several side by side.",
  'submit_contact sends the owner a message: make one UUID for idempotency_key and reuse it on retries.',
  "Errors are tool results with isError and the HTTP API's Error body ({code, message, hint}); rate_limited means wait.",
  'Sandbox mode (/mcp?sandbox=true or X-Sandbox: true) keeps writes away from the owner; sandbox_ping says which mode you are in.',
  'Documentation lives on the sibling server /mcp/docs.',
].join(' ');

/** The project template's listing, the same from both SDKs' servers. */
export const PROJECT_RESOURCE_METADATA = {
  title: 'Project write-up',
  description: "A project as Markdown: its facts, then the owner's write-up.",
  mimeType: MARKDOWN,
};

/** What a client is told when it reads a project that does not exist. */
export const PROJECT_NOT_FOUND_HINT = 'List the resources for every project.';

/** Every project's resource is the URL of its Markdown page. */
export function projectUriTemplate(siteUrl: string): string {
  return `${siteUrl}/projects/{slug}.md`;
}

/** resources/list's entries for the projects, in the catalog's order. */
export function projectListing(catalog: Catalog, siteUrl: string) {
  return {
    resources: catalog.records.map(({ project }) => ({
      uri: `${siteUrl}/projects/${project.slug}.md`,
      name: project.slug,
      title: project.title,
      description: project.description,
      mimeType: MARKDOWN,
    })),
  };
}

/** The slug completions for a prefix. */
export function slugsStartingWith(catalog: Catalog, prefix: string): string[] {
  return catalog.records.map(({ project }) => project.slug).filter((slug) => slug.startsWith(prefix));
}

/** A project's resource text: its Markdown page, byte for byte. */
export function projectText(record: ProjectRecord, siteUrl: string): string {
  return markdownTwinText(projectAsMarkdown(record), siteUrl, `/projects/${record.project.slug}`);
}

export interface ProductServerParts {
  catalog: Catalog;
  siteUrl: string;
}

/**
 * The product server of /mcp, built fresh for each request (the transport is stateless): the
 * tools of PRODUCT_TOOLS, its own server card (mcp://server-card.json, read through `readCard`),
 * and every project as a Markdown resource behind one URI template, the URL of the project's
 * Markdown page.
 */
export function buildProductServer(
  { catalog, siteUrl }: ProductServerParts,
  context: ToolContext,
  readCard: CardReader,
): McpServer {
  const server = newMcpServer('product', siteUrl, PRODUCT_INSTRUCTIONS);
  registerTools(server, PRODUCT_TOOLS, context);
  registerServerCardResource(server, readCard);

  const template = new ResourceTemplate(projectUriTemplate(siteUrl), {
    list: () => projectListing(catalog, siteUrl),
    complete: { slug: (prefix) => slugsStartingWith(catalog, prefix) },
  });
  server.registerResource('project', template, PROJECT_RESOURCE_METADATA, (uri, { slug }) => {
    const record = typeof slug === 'string' ? catalog.get(slug) : undefined;
    if (record === undefined) throw resourceNotFound(uri, PROJECT_NOT_FOUND_HINT);
    return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text: projectText(record, siteUrl) }] };
  });
  return server;
}
