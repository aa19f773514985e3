import { serviceUrl, type PublicOrigins } from '../config/public-urls.ts';
import {
  InMemoryTransport,
  LATEST_PROTOCOL_VERSION,
  type InitializeResult,
  type JSONRPCMessage,
  type McpServer,
} from '@modelcontextprotocol/server';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from './protocol-versions.ts';
import { cardName, MCP_SERVERS, type McpServerId } from './server-identity.ts';

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
 * Asks one server in memory how it introduces itself: the 2025 handshake (initialize), whose
 * `serverInfo` is the one server/discover and every 2026-07-28 result report too. The server
 * SDK has no client of its own, and the card needs nothing more.
 */
async function serverInfoOf(server: McpServer): Promise<InitializeResult['serverInfo']> {
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
    return (message.result as InitializeResult).serverInfo;
  } finally {
    await clientSide.close();
    await server.close();
  }
}

/**
 * The server card of one MCP server (schema.ts `ServerCard`): identity and how to connect, and
 * nothing else. The current draft lists no tools, resources or prompts (clients list them over
 * the protocol), nor capabilities. Name, version and title are read from the server itself, so
 * the card agrees with what a connected client is told.
 */
async function serverCard(
  id: McpServerId,
  server: McpServer,
  origins: PublicOrigins,
): Promise<Record<string, unknown>> {
  const { siteUrl } = origins;
  const serverInfo = await serverInfoOf(server);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: cardName(id, siteUrl),
    version: serverInfo.version,
    description: MCP_SERVERS[id].description,
    title: serverInfo.title,
    websiteUrl: siteUrl,
    remotes: [
      {
        type: 'streamable-http',
        url: serviceUrl(origins, MCP_SERVERS[id].path),
        supportedProtocolVersions: CARD_PROTOCOL_VERSIONS,
      },
    ],
  };
}

/** The card as the bytes served at every card path and read from the resource mcp://server-card.json. */
export async function serverCardJson(id: McpServerId, server: McpServer, origins: PublicOrigins): Promise<string> {
  return `${JSON.stringify(await serverCard(id, server, origins), null, 2)}\n`;
}
