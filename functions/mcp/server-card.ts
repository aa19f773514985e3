import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { MCP_SERVERS, type McpServerId } from './server-identity.ts';

/** The current experimental server-card schema (SEP-2127, draft). */
const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** `localhost` -> `localhost`, `ada.example` -> `example.ada`: the namespace half of a card's reverse-DNS name. */
function reverseDns(siteUrl: string): string {
  return new URL(siteUrl).hostname.split('.').reverse().join('.');
}

/**
 * The server card of one MCP server, read from the server itself: a client connected in memory
 * lists its tools, resources, resource templates and prompts exactly as tools/list and
 * resources/list answer them over HTTP, so the card cannot drift from the server. Besides the
 * card schema's members it carries serverInfo, transport and instructions for older readers.
 */
export async function serverCard(
  id: McpServerId,
  server: McpServer,
  siteUrl: string,
): Promise<Record<string, unknown>> {
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
      name: `${reverseDns(siteUrl)}/${MCP_SERVERS[id].name}`,
      version: serverInfo?.version,
      description: MCP_SERVERS[id].description,
      title: serverInfo?.title,
      websiteUrl: siteUrl,
      remotes: [{ type: 'streamable-http', url, supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS }],
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
