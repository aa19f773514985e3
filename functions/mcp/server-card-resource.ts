import type { McpServer } from '@modelcontextprotocol/server';
import { SERVER_CARD_MEDIA_TYPE } from './server-identity.ts';

/**
 * The URI every server's card is read at over MCP. The first server-card draft (SEP-2127 until
 * 2026-07) named this resource; the current one leaves it out but forbids nothing, and a client
 * already connected keeps it as a way to learn what the card says without HTTP.
 */
const SERVER_CARD_URI = 'mcp://server-card.json';

/** The card resource's listing: the same media type as over HTTP. */
const SERVER_CARD_METADATA = {
  title: 'Server card',
  description: "This server's MCP server card: identity, Streamable HTTP endpoint and protocol versions.",
  mimeType: SERVER_CARD_MEDIA_TYPE,
};

/** The served card's bytes (functions/mcp/server-card.ts serverCardJson), made once per process. */
export type CardReader = () => Promise<string>;

/**
 * Registers the server's own card as a static resource, with the bytes every card path serves.
 * Listing it needs no card (the card itself is made from the server); only a read calls `readCard`.
 */
export function registerServerCardResource(server: McpServer, readCard: CardReader): void {
  server.registerResource('server-card', SERVER_CARD_URI, SERVER_CARD_METADATA, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: SERVER_CARD_MEDIA_TYPE, text: await readCard() }],
  }));
}
