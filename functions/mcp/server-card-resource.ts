import type { McpServer } from '@modelcontextprotocol/server';
import { DISCOVERY_MEDIA_TYPE } from './server-identity.ts';

/** SEP-2127 (draft), "Endpoints" > "MCP Resource": the URI every server's card is read at. */
const SERVER_CARD_URI = 'mcp://server-card.json';

/** The card resource's listing. */
const SERVER_CARD_METADATA = {
  title: 'Server card',
  description: "This server's MCP server card (SEP-2127): identity, endpoint, capabilities and primitives.",
  mimeType: DISCOVERY_MEDIA_TYPE,
};

/** The served card's bytes (functions/mcp/server-card.ts serverCardJson), made once per process. */
export type CardReader = () => Promise<string>;

/**
 * Registers the server's own card as a static resource, so a client already connected learns
 * what the well-known URI would tell it, without HTTP. Listing it needs no card (the card
 * itself is made by listing the server); only a read calls `readCard`.
 */
export function registerServerCardResource(server: McpServer, readCard: CardReader): void {
  server.registerResource('server-card', SERVER_CARD_URI, SERVER_CARD_METADATA, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: DISCOVERY_MEDIA_TYPE, text: await readCard() }],
  }));
}
