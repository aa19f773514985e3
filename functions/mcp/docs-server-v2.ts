// The documentation server of /mcp/docs on the MCP SDK v2, which serves the 2026-07-28 revision
// and the 2025 era from the same server definition (docs-server.ts is the same server on SDK 1.x).
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { markdownTwinText } from '../pages/twin-text.ts';
import { DOCS_INSTRUCTIONS, INTEGRATION_PROMPT, INTEGRATION_PROMPT_CONFIG, integrationPrompt } from './docs-server.ts';
import { DOCS_TOOLS, type DocsContext } from './docs-tools.ts';
import { newDualEraServer, serveCardResource, serveTools, withdrawListChanged } from './dual-era-server.ts';
import type { CardReader } from './server-card-resource.ts';

const MARKDOWN = 'text/markdown';

/** The documentation server, built for one request of either era. */
export function buildDocsServerV2(context: DocsContext, readCard: CardReader): McpServer {
  const { docs, siteUrl } = context;
  const server = newDualEraServer('docs', siteUrl, DOCS_INSTRUCTIONS);
  serveTools(server, DOCS_TOOLS, context);
  serveCardResource(server, readCard);
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
  withdrawListChanged(server);
  return server;
}
