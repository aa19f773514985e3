import {
  InMemoryTransport,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type InitializeResult,
  type JSONRPCMessage,
  type McpServer,
} from '@modelcontextprotocol/server';
import { cardName, MCP_SERVERS, type McpServerId } from './server-identity.ts';

/** The current experimental server-card schema (SEP-2127, draft). */
const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** The revisions of the MCP specification that were published (each has its own specification tree). */
const PUBLISHED_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/**
 * What a card's remote lists as `supportedProtocolVersions`: the versions the SDK negotiates
 * over initialize that are published revisions. The SDK also accepts 2024-10-07, a pre-release date that was
 * never published, so the card does not offer it.
 */
const CARD_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS.filter((version) =>
  PUBLISHED_PROTOCOL_VERSIONS.includes(version),
);

/**
 * A client of one server in memory that speaks just enough MCP to list it: the 2025 handshake
 * (initialize, then notifications/initialized), then one request at a time. The server SDK has
 * no client of its own, and the card needs nothing more.
 */
async function inMemoryClient(server: McpServer) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const pending = new Map<number, (message: JSONRPCMessage) => void>();
  clientSide.onmessage = (message) => {
    if ('id' in message && typeof message.id === 'number') pending.get(message.id)?.(message);
  };
  await server.connect(serverSide);
  await clientSide.start();
  let lastId = 0;
  async function request<Result>(method: string, params: Record<string, unknown> = {}): Promise<Result> {
    const id = ++lastId;
    const answer = new Promise<JSONRPCMessage>((resolve) => pending.set(id, resolve));
    await clientSide.send({ jsonrpc: '2.0', id, method, params });
    const message = await answer;
    pending.delete(id);
    if ('error' in message)
      throw new Error(`${method} failed while the server card was built: ${message.error.message}`);
    if (!('result' in message)) throw new Error(`${method} got no result while the server card was built`);
    return message.result as Result;
  }
  const initialized = await request<InitializeResult>('initialize', {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'server-card-builder', version: '1.0.0' },
  });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    initialized,
    /** One list, whole: these lists are small and never paged, and a page would be lost here. */
    async list(method: string, member: string): Promise<unknown[]> {
      const result = await request<Record<string, unknown>>(method);
      if (result.nextCursor !== undefined) throw new Error(`${method} was paged while the server card was built`);
      return result[member] as unknown[];
    },
    close: () => clientSide.close(),
  };
}

/**
 * The server card of one MCP server, read from the server itself: a client connected in memory
 * lists its tools, resources, resource templates and prompts exactly as tools/list and
 * resources/list answer them over HTTP, so the card cannot drift from the server. Besides the
 * card schema's members it carries serverInfo, transport and instructions for older readers.
 */
async function serverCard(id: McpServerId, server: McpServer, siteUrl: string): Promise<Record<string, unknown>> {
  const client = await inMemoryClient(server);
  try {
    const { capabilities, serverInfo, instructions } = client.initialized;
    const url = `${siteUrl}${MCP_SERVERS[id].path}`;
    return {
      $schema: SERVER_CARD_SCHEMA,
      name: cardName(id, siteUrl),
      version: serverInfo.version,
      description: MCP_SERVERS[id].description,
      title: serverInfo.title,
      websiteUrl: siteUrl,
      remotes: [{ type: 'streamable-http', url, supportedProtocolVersions: CARD_PROTOCOL_VERSIONS }],
      serverInfo,
      transport: { type: 'streamable-http', url },
      capabilities,
      instructions,
      tools: capabilities.tools ? await client.list('tools/list', 'tools') : [],
      resources: capabilities.resources ? await client.list('resources/list', 'resources') : [],
      resourceTemplates: capabilities.resources
        ? await client.list('resources/templates/list', 'resourceTemplates')
        : [],
      prompts: capabilities.prompts ? await client.list('prompts/list', 'prompts') : [],
    };
  } finally {
    await client.close();
    await server.close();
  }
}

/** The card as the bytes served at every card path and read from the resource mcp://server-card.json. */
export async function serverCardJson(id: McpServerId, server: McpServer, siteUrl: string): Promise<string> {
  return `${JSON.stringify(await serverCard(id, server, siteUrl), null, 2)}\n`;
}
