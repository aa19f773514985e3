import { cardBesideServer, cardName, MCP_SERVERS, type McpServerId } from './server-identity.ts';

/** The media type a catalog entry names for an MCP server card (modelcontextprotocol/experimental-ext-server-card, docs/discovery.md). */
const SERVER_CARD_ENTRY_TYPE = 'application/mcp-server-card+json';

/**
 * The MCP Catalog of this host (modelcontextprotocol/experimental-ext-server-card, docs/discovery.md: "MCP Catalog" >
 * "Catalog Format"): `specVersion` and one entry per server with the required `identifier`
 * (`urn:air:{publisher domain}:{name}`, the name being the part of the card's name after the
 * "/"), `displayName`, `type` and `url` (where the card is). Each entry adds two members of
 * its own, `name` (the card's reverse-DNS name) and `endpoint` (the Streamable HTTP URL), so
 * a client can connect without a second request; the format does not forbid extra members.
 */
export function mcpCatalog(siteUrl: string) {
  const publisher = new URL(siteUrl).hostname;
  return {
    specVersion: 'draft',
    entries: (Object.keys(MCP_SERVERS) as McpServerId[]).map((id) => ({
      identifier: `urn:air:${publisher}:${MCP_SERVERS[id].name}`,
      displayName: MCP_SERVERS[id].title,
      type: SERVER_CARD_ENTRY_TYPE,
      url: `${siteUrl}${cardBesideServer(id)}`,
      name: cardName(id, siteUrl),
      endpoint: `${siteUrl}${MCP_SERVERS[id].path}`,
    })),
  };
}
