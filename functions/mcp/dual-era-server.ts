// What both servers built on the MCP SDK v2 share: how a server is made anew for each request of
// either protocol era (identity, cache hints, one schema validator), how tools are served, the
// card resource, and the capabilities they withdraw.
import { McpServer, ProtocolError, ProtocolErrorCode, type Tool } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { SERVER_CARD_METADATA, SERVER_CARD_URI, type CardReader } from './server-card-resource.ts';
import { DISCOVERY_MEDIA_TYPE, MCP_SERVER_VERSION, MCP_SERVERS, type McpServerId } from './server-identity.ts';
import {
  answerToolCall,
  listedTools,
  unknownToolMessage,
  type ToolContext,
  type ToolDefinition,
} from './tool-registry.ts';

/**
 * How long a client may keep a list or a read (2026-07-28, CacheableResult): the tools, the
 * pages, the projects, the prompt and the card change only with a new build, so any cache may
 * keep them for a while; a deploy is then seen within this time.
 */
const UNTIL_A_DEPLOY_MS = 5 * 60 * 1000;
const BUILD_CONTENT = { ttlMs: UNTIL_A_DEPLOY_MS, cacheScope: 'public' } as const;

/**
 * The SDK's Server makes a new Ajv unless given a validator, as SDK 1.x does; it is used only for
 * elicitation, which these servers never ask for, so every server built shares one
 * (stateless-server.ts does the same for the 1.x servers).
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

/** A new, empty server of the given kind, with its identity, instructions and cache hints. */
export function newDualEraServer(id: McpServerId, siteUrl: string, instructions: string): McpServer {
  const { name, title } = MCP_SERVERS[id];
  sharedValidator ??= new AjvJsonSchemaValidator();
  return new McpServer(
    { name, title, version: MCP_SERVER_VERSION, websiteUrl: siteUrl },
    {
      instructions,
      jsonSchemaValidator: sharedValidator,
      cacheHints: {
        'tools/list': BUILD_CONTENT,
        'resources/list': BUILD_CONTENT,
        'resources/templates/list': BUILD_CONTENT,
        'prompts/list': BUILD_CONTENT,
        'resources/read': BUILD_CONTENT,
        'server/discover': BUILD_CONTENT,
      },
    },
  );
}

/**
 * Serves tools/list and tools/call for a set of tools, as tool-registry.ts registerTools does on
 * SDK 1.x: the operation behind each tool checks its arguments (the API's validation and
 * wording), and both eras answer through answerToolCall, so with the same results.
 */
export function serveTools<Context extends ToolContext>(
  server: McpServer,
  tools: readonly ToolDefinition<Context>[],
  context: Context,
): void {
  // The same JSON Schemas as the 1.x servers list; SDK 1.x types them more loosely than v2.
  const listed = listedTools(tools) as Tool[];
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler('tools/list', () => ({ tools: listed }));
  server.server.setRequestHandler('tools/call', async (request) => {
    const result = await answerToolCall(tools, context, request.params.name, request.params.arguments);
    if (result === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, unknownToolMessage(request.params.name));
    return result;
  });
}

/** The server's own card as a static resource (server-card-resource.ts says why). */
export function serveCardResource(server: McpServer, readCard: CardReader): void {
  server.registerResource('server-card', SERVER_CARD_URI, SERVER_CARD_METADATA, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: DISCOVERY_MEDIA_TYPE, text: await readCard() }],
  }));
}

/**
 * The SDK declares listChanged with the first registration. It promises list_changed
 * notifications (on subscriptions/listen in 2026-07-28), and these lists change only with a
 * build, so it is withdrawn, after every registration: the same capabilities as the 1.x servers
 * (stateless-server.ts).
 */
export function withdrawListChanged(server: McpServer): void {
  const declared = server.server.getCapabilities();
  for (const kind of ['tools', 'resources', 'prompts'] as const)
    if (declared[kind] !== undefined) server.server.registerCapabilities({ [kind]: { listChanged: undefined } });
}
