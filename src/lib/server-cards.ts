import { loadConfig } from '../../functions/config/env.ts';
import { mcpServers } from '../../functions/mcp/mcp-servers.ts';
import { registryEntryJson } from '../../functions/mcp/registry-entry.ts';
import type { CardCopy } from '../../functions/mcp/server-card.ts';
import { SERVER_CARD_MEDIA_TYPE, type McpServerId } from '../../functions/mcp/server-identity.ts';
import { buildCatalog } from './catalog.ts';
import { docPages } from './docs.ts';
import { textResponse } from './site-documents.ts';

/**
 * One copy of the server card of /mcp or /mcp/docs (functions/mcp/server-card.ts CardCopy), read
 * at build from the same server the production process runs (whose resource
 * mcp://server-card.json has the bytes of the endpoint copy).
 */
export async function serverCardResponse(id: McpServerId, copy: CardCopy): Promise<Response> {
  const { siteUrl, apiOrigin } = loadConfig();
  const servers = mcpServers({ catalog: await buildCatalog(), docs: await docPages(), siteUrl, apiOrigin });
  return textResponse(await servers.card(id, copy), SERVER_CARD_MEDIA_TYPE);
}

/** The MCP Registry entry (server.json) of /mcp or /mcp/docs (functions/mcp/registry-entry.ts). */
export function registryEntryResponse(id: McpServerId): Response {
  return textResponse(registryEntryJson(id, loadConfig()), 'application/json');
}
