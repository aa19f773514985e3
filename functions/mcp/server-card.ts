import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { cardName, MCP_SERVERS, type McpServerId } from './server-identity.ts';

/** The current experimental server-card schema (SEP-2127, draft). */
const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** The revisions of the MCP specification that were published (each has its own specification tree). */
const PUBLISHED_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/**
 * What a card's remote lists as `supportedProtocolVersions`: the versions the SDK negotiates
 * that are published revisions. The SDK also accepts 2024-10-07, a pre-release date that was
 * never published, so the card does not offer it.
 */
const CARD_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS.filter((version) =>
  PUBLISHED_PROTOCOL_VERSIONS.includes(version),
);

/**
 * The server card of one MCP server, read from the server itself: a client connected in memory
 * lists its tools, resources, resource templates and prompts exactly as tools/list and
 * resources/list answer them over HTTP, so the card cannot drift from the server. Besides the
 * card schema's members it carries serverInfo, transport and instructions for older readers.
 */
async function serverCard(id: McpServerId, server: McpServer, siteUrl: string): Promise<Record<string, unknown>> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'server-card-builder', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const capabilities = client.getServerCapabilities() ?? {};
    const serverInfo = client.getServerVersion();
    const url = `${siteUrl}${MCP_SERVERS[id].path}`;
    return {
      $schema: SERVER_CARD_SCHEMA,
      name: cardName(id, siteUrl),
      version: serverInfo?.version,
      description: MCP_SERVERS[id].description,
      title: serverInfo?.title,
      websiteUrl: siteUrl,
      remotes: [{ type: 'streamable-http', url, supportedProtocolVersions: CARD_PROTOCOL_VERSIONS }],
      serverInfo,
      transport: { type: 'streamable-http', url },
      capabilities,
      instructions: client.getInstructions(),
      tools: capabilities.tools ? (await client.listTools()).tools : [],
      resources: capabilities.resources ? (await client.listResources()).resources : [],
      resourceTemplates: capabilities.resources ? (await client.listResourceTemplates()).resourceTemplates : [],
      prompts: capabilities.prompts ? (await client.listPrompts()).prompts : [],
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
