import { ResourceNotFoundError, ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import { markdownTwinText } from '../site/twin-text.ts';
import type { Catalog } from '../projects/catalog.ts';
import { projectAsMarkdown } from '../projects/project-markdown.ts';
import { registerAppViews, type AppViewReader } from './app-views.ts';
import { newDualEraServer, withdrawListChanged } from './dual-era-server.ts';
import { PRODUCT_TOOLS } from './product-tools.ts';
import { PROJECT_RESOURCE_MIME, projectResource, projectResourceUri } from './project-resource.ts';
import { registerServerCardResource, type CardReader } from './server-card-resource.ts';
import { registerTools, type ToolContext } from './tool-registry.ts';

/** What an agent should know before its first call; sent in the initialize and server/discover results. */
const INSTRUCTIONS = [
  "This server is the portfolio's product API for agents: projects, search, contact and jobs.",
  "Start with search (free text) or list_projects (filter by domain or stack), then get_project or read the project's resource for its full write-up; compare_projects lays several side by side.",
  'submit_contact sends the owner a message: make one UUID for idempotency_key and reuse it on retries.',
  "Errors are tool results with isError and the HTTP API's Error body ({code, message, hint}); rate_limited means wait.",
  'Sandbox mode (/mcp?sandbox=true or X-Sandbox: true) keeps writes away from the owner; sandbox_ping says which mode you are in.',
  'Documentation lives on the sibling server /mcp/docs.',
].join(' ');

export interface ProductServerParts {
  catalog: Catalog;
  siteUrl: string;
  /** The built MCP Apps views; without it they are listed, and a read says they are not built here. */
  appViews?: AppViewReader;
}

/**
 * The product server of /mcp, built for one request of either protocol era: the tools of
 * PRODUCT_TOOLS (each an API operation, so submit_contact keeps the API's one idempotency key per
 * message in every era), its own server card (mcp://server-card.json, read through `readCard`),
 * and every project as a Markdown resource behind one URI template, the URL of the project's
 * Markdown page; and the MCP Apps views the tools name (app-views.ts).
 */
export function buildProductServer(
  { catalog, siteUrl, appViews }: ProductServerParts,
  context: ToolContext,
  readCard: CardReader,
): McpServer {
  const server = newDualEraServer('product', siteUrl, INSTRUCTIONS);
  registerTools(server, PRODUCT_TOOLS, { ...context, siteUrl });
  registerServerCardResource(server, readCard);
  registerAppViews(server, appViews);

  const template = new ResourceTemplate(projectResourceUri(siteUrl, '{slug}'), {
    list: () => ({ resources: catalog.records.map(({ project }) => projectResource(siteUrl, project)) }),
    complete: {
      slug: (prefix) => catalog.records.map(({ project }) => project.slug).filter((slug) => slug.startsWith(prefix)),
    },
  });
  server.registerResource(
    'project',
    template,
    {
      title: 'Project write-up',
      description: "A project as Markdown: its facts, then the owner's write-up.",
      mimeType: PROJECT_RESOURCE_MIME,
    },
    (uri, { slug }) => {
      const record = typeof slug === 'string' ? catalog.get(slug) : undefined;
      // -32602 with data.uri in every era: 2026-07-28 requires it (server/resources, "Error
      // Handling"), and the SDK sends no -32002, which 2025 clients were told to expect.
      if (record === undefined)
        throw new ResourceNotFoundError(
          uri.href,
          `Resource not found: ${uri.href}. List the resources for every project.`,
        );
      const text = markdownTwinText(projectAsMarkdown(record), siteUrl, `/projects/${record.project.slug}`);
      return { contents: [{ uri: uri.href, mimeType: PROJECT_RESOURCE_MIME, text }] };
    },
  );
  withdrawListChanged(server);
  return server;
}
