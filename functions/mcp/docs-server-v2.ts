// The documentation server of /mcp/docs on the MCP SDK v2, which serves the 2026-07-28 revision
// and the 2025 era from the same server definition (docs-server.ts is the same server on SDK 1.x).
import { McpServer, ProtocolError, ProtocolErrorCode, type Tool } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { z } from 'zod';
import { markdownTwinText } from '../pages/twin-text.ts';
import { DOCS_INSTRUCTIONS, INTEGRATION_PROMPT, INTEGRATION_PROMPT_CONFIG, integrationPrompt } from './docs-server.ts';
import { DOCS_TOOLS, type DocsContext } from './docs-tools.ts';
import { SERVER_CARD_METADATA, SERVER_CARD_URI, type CardReader } from './server-card-resource.ts';
import { DISCOVERY_MEDIA_TYPE, MCP_SERVER_VERSION, MCP_SERVERS } from './server-identity.ts';
import { answerToolCall, listedTools, unknownToolMessage } from './tool-registry.ts';

const MARKDOWN = 'text/markdown';

/**
 * How long a client may keep a list or a page (2026-07-28, CacheableResult): the tools, the pages
 * and the prompt change only with a new build, so any cache may keep them for a while; a deploy
 * is then seen within this time.
 */
const UNTIL_A_DEPLOY_MS = 5 * 60 * 1000;
const BUILD_CONTENT = { ttlMs: UNTIL_A_DEPLOY_MS, cacheScope: 'public' } as const;

/**
 * The SDK's Server makes a new Ajv unless given a validator, as SDK 1.x does; it is used only for
 * elicitation, which this server never asks for, so every server built shares one
 * (stateless-server.ts does the same for the 1.x servers).
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

/** The documentation server, built for one request of either era. */
export function buildDocsServerV2(context: DocsContext, readCard: CardReader): McpServer {
  const { docs, siteUrl } = context;
  const { name, title } = MCP_SERVERS.docs;
  sharedValidator ??= new AjvJsonSchemaValidator();
  const server = new McpServer(
    { name, title, version: MCP_SERVER_VERSION, websiteUrl: siteUrl },
    {
      instructions: DOCS_INSTRUCTIONS,
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

  // The same JSON Schemas as the 1.x server lists; SDK 1.x types them more loosely than v2.
  const tools = listedTools(DOCS_TOOLS) as Tool[];
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler('tools/list', () => ({ tools }));
  server.server.setRequestHandler('tools/call', async (request) => {
    const result = await answerToolCall(DOCS_TOOLS, context, request.params.name, request.params.arguments);
    if (result === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, unknownToolMessage(request.params.name));
    return result;
  });

  server.registerResource('server-card', SERVER_CARD_URI, SERVER_CARD_METADATA, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: DISCOVERY_MEDIA_TYPE, text: await readCard() }],
  }));
  for (const doc of docs) {
    const uri = `${siteUrl}${doc.path}.md`;
    server.registerResource(
      doc.path.slice(1),
      uri,
      { title: doc.title, description: doc.description, mimeType: MARKDOWN },
      () => ({
        contents: [{ uri, mimeType: MARKDOWN, text: markdownTwinText(doc.markdown, siteUrl, doc.path) }],
      }),
    );
  }

  server.registerPrompt(
    INTEGRATION_PROMPT,
    { ...INTEGRATION_PROMPT_CONFIG, argsSchema: z.object(INTEGRATION_PROMPT_CONFIG.argsSchema) },
    ({ goal }) => ({
      description: INTEGRATION_PROMPT_CONFIG.title,
      messages: [{ role: 'user', content: { type: 'text', text: integrationPrompt(docs, siteUrl, goal) } }],
    }),
  );
  // The SDK declares listChanged with the first registration. It promises list_changed
  // notifications (on subscriptions/listen in 2026-07-28), and these lists change only with a
  // build, so it is withdrawn: the same capabilities as the 1.x server (stateless-server.ts).
  server.server.registerCapabilities({
    tools: { listChanged: undefined },
    resources: { listChanged: undefined },
    prompts: { listChanged: undefined },
  });
  return server;
}
