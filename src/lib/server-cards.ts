import { loadConfig } from '../../functions/config/env.ts';
import { mcpServers } from '../../functions/mcp/mcp-servers.ts';
import { SERVER_CARD_MEDIA_TYPE, type McpServerId } from '../../functions/mcp/server-identity.ts';
import { buildCatalog } from './catalog.ts';
import { docPages } from './docs.ts';
import { textResponse } from './site-documents.ts';

/**
 * The server card of /mcp or /mcp/docs, read at build from the same server the production
 * process runs (which returns the same bytes as the resource mcp://server-card.json).
 */
export async function serverCardResponse(id: McpServerId): Promise<Response> {
  const { siteUrl, apiOrigin } = loadConfig();
  const servers = mcpServers({ catalog: await buildCatalog(), docs: await docPages(), siteUrl, apiOrigin });
  return textResponse(await servers.card(id), SERVER_CARD_MEDIA_TYPE);
}
