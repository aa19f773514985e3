import type { PublicOrigins } from '../config/public-urls.ts';
import {
  InMemoryTransport,
  LATEST_PROTOCOL_VERSION,
  type InitializeResult,
  type JSONRPCMessage,
  type McpServer,
} from '@modelcontextprotocol/server';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from './protocol-versions.ts';
import { listedIdentity, type McpServerId } from './server-identity.ts';

/**
 * The server-card schema this card follows (modelcontextprotocol/experimental-ext-server-card,
 * schema.ts, `ServerCard.$schema`: exactly this URL).
 */
const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/**
 * What a card's remote lists as `supportedProtocolVersions` ("MCP protocol versions actively
 * supported by this remote endpoint", schema.ts `Remote`): the 2026-07-28 revision, then the
 * versions negotiated over initialize (protocol-versions.ts). The card SHOULD NOT contradict
 * server/discover (docs/discovery.md, "Consistency with Runtime Behavior"), which lists only the
 * modern revisions; 2025-era clients learn the rest here.
 */
const CARD_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

/**
 * Which copy of a card: `endpoint`, exactly the draft's `ServerCard`, is served beside the server
 * and read as the resource mcp://server-card.json; `well-known`, served at the well-known paths
 * the first drafts named, adds what scanners written for those drafts read (see wellKnownCard).
 */
export type CardCopy = 'endpoint' | 'well-known';

/**
 * Asks one server in memory how it introduces itself: the 2025 handshake (initialize), whose
 * `serverInfo` is the one server/discover and every 2026-07-28 result report too, and the
 * capabilities it declares. The server SDK has no client of its own, and this needs nothing more.
 */
async function initializeResultOf(server: McpServer): Promise<InitializeResult> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const answer = new Promise<JSONRPCMessage>((resolve) => {
    clientSide.onmessage = resolve;
  });
  await server.connect(serverSide);
  await clientSide.start();
  try {
    await clientSide.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'server-card-builder', version: '1.0.0' },
      },
    });
    const message = await answer;
    if ('error' in message)
      throw new Error(`initialize failed while the server card was built: ${message.error.message}`);
    if (!('result' in message)) throw new Error('initialize got no result while the server card was built');
    return message.result as InitializeResult;
  } finally {
    await clientSide.close();
    await server.close();
  }
}

/**
 * The server card of one MCP server (schema.ts `ServerCard`): identity, icons and how to connect,
 * and nothing else, all from the one listed identity (server-identity.ts listedIdentity). The
 * current draft lists no tools, resources or prompts (clients list them over the protocol), nor
 * capabilities.
 */
function serverCard(id: McpServerId, origins: PublicOrigins): Record<string, unknown> {
  const { name, version, description, title, websiteUrl, icons, endpoint } = listedIdentity(id, origins);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name,
    version,
    description,
    title,
    websiteUrl,
    icons,
    remotes: [{ type: 'streamable-http', url: endpoint, supportedProtocolVersions: CARD_PROTOCOL_VERSIONS }],
  };
}

/**
 * The card at the well-known paths: the draft's card, then the members readers of the first
 * drafts (SEP-1649) and today's scanners look for there: `serverInfo` and `capabilities` as the
 * server answers initialize, and `transport`, the endpoint. The draft's objects are open, so a
 * reader of the current draft still reads the same card; the copy beside the server stays exact.
 */
async function wellKnownCard(id: McpServerId, server: McpServer, origins: PublicOrigins) {
  const card = serverCard(id, origins);
  const { serverInfo, capabilities } = await initializeResultOf(server);
  const { name, title, version, icons } = serverInfo;
  return {
    ...card,
    serverInfo: { name, title, version, icons },
    transport: { type: 'streamable-http', url: listedIdentity(id, origins).endpoint },
    capabilities,
  };
}

/**
 * One copy of the card as the bytes served at its paths. `server` is only asked (and closed) for
 * the well-known copy; the endpoint copy is also the bytes of the resource mcp://server-card.json.
 */
export async function serverCardJson(
  id: McpServerId,
  copy: CardCopy,
  server: () => McpServer,
  origins: PublicOrigins,
): Promise<string> {
  const card = copy === 'endpoint' ? serverCard(id, origins) : await wellKnownCard(id, server(), origins);
  return `${JSON.stringify(card, null, 2)}\n`;
}
