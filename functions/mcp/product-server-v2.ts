// The product server of /mcp on the MCP SDK v2, which serves the 2026-07-28 revision and the 2025
// era from the same server definition (product-server.ts is the same server on SDK 1.x).
import { ResourceNotFoundError, ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import type { Catalog } from '../projects/catalog.ts';
import { newDualEraServer, serveCardResource, serveTools, withdrawListChanged } from './dual-era-server.ts';
import {
  PRODUCT_INSTRUCTIONS,
  PROJECT_NOT_FOUND_HINT,
  PROJECT_RESOURCE_METADATA,
  projectListing,
  projectText,
  projectUriTemplate,
  slugsStartingWith,
} from './product-server.ts';
import { PRODUCT_TOOLS } from './product-tools.ts';
import type { CardReader } from './server-card-resource.ts';
import type { ToolContext } from './tool-registry.ts';

/**
 * The product server, built for one request of either era: the tools of PRODUCT_TOOLS (so
 * submit_contact keeps its one idempotency key per message: the key is the API's, whatever the
 * era), the server card, and every project as a Markdown resource behind one URI template.
 */
export function buildProductServerV2(
  { catalog, siteUrl }: { catalog: Catalog; siteUrl: string },
  context: ToolContext,
  readCard: CardReader,
): McpServer {
  const server = newDualEraServer('product', siteUrl, PRODUCT_INSTRUCTIONS);
  serveTools(server, PRODUCT_TOOLS, context);
  serveCardResource(server, readCard);
  const template = new ResourceTemplate(projectUriTemplate(siteUrl), {
    list: () => projectListing(catalog, siteUrl),
    complete: { slug: (prefix) => slugsStartingWith(catalog, prefix) },
  });
  server.registerResource('project', template, PROJECT_RESOURCE_METADATA, (uri, { slug }) => {
    const record = typeof slug === 'string' ? catalog.get(slug) : undefined;
    // -32602 with data.uri in both eras: the SDK v2 sends no -32002 (2026-07-28, server/resources "Error Handling").
    if (record === undefined)
      throw new ResourceNotFoundError(uri.href, `Resource not found: ${uri.href}. ${PROJECT_NOT_FOUND_HINT}`);
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: projectText(record, siteUrl) }] };
  });
  withdrawListChanged(server);
  return server;
}
