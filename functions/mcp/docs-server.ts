import { markdownTwinText } from '../site/twin-text.ts';
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { AGENT_GUIDE_PATH, type DocPage } from '../site/doc-page.ts';
import { DOCS_TOOLS, type DocsContext } from './docs-tools.ts';
import { registerServerCardResource, type CardReader } from './server-card-resource.ts';
import { newDualEraServer, withdrawListChanged } from './dual-era-server.ts';
import { registerTools } from './tool-registry.ts';

const MARKDOWN = 'text/markdown';

/** The prompt that walks an agent through an integration. */
export const INTEGRATION_PROMPT = 'integrate_with_api';

const DOCS_INSTRUCTIONS = [
  'This server holds the developer documentation of the portfolio API and its MCP servers.',
  "Call list_docs for the pages, search_docs to find a topic, get_doc for a page's Markdown; every page is also a text/markdown resource.",
  `The prompt ${INTEGRATION_PROMPT} walks through building a client step by step.`,
  'To act on the portfolio itself (projects, contact, jobs), use the sibling server /mcp.',
].join(' ');

/**
 * The documentation server of /mcp/docs, built for one request of either protocol era: the tools
 * of DOCS_TOOLS, its own server card (mcp://server-card.json, read through `readCard`), each
 * documentation page as a Markdown resource at its `.md` URL, and a prompt.
 */
export function buildDocsServer(context: DocsContext, readCard: CardReader): McpServer {
  const { docs, siteUrl } = context;
  const server = newDualEraServer('docs', siteUrl, DOCS_INSTRUCTIONS);
  registerTools(server, DOCS_TOOLS, context);
  registerServerCardResource(server, readCard);

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

  server.registerPrompt(INTEGRATION_PROMPT, INTEGRATION_PROMPT_CONFIG, ({ goal }) => ({
    description: INTEGRATION_PROMPT_CONFIG.title,
    messages: [{ role: 'user', content: { type: 'text', text: integrationPrompt(docs, siteUrl, goal) } }],
  }));
  withdrawListChanged(server);
  return server;
}

/** The prompt's title, description and argument. */
const INTEGRATION_PROMPT_CONFIG = {
  title: 'Integrate with the portfolio API',
  description:
    'Step-by-step instructions for building a client of the portfolio API or its MCP servers, for a goal you name.',
  argsSchema: z.object({
    goal: z
      .string()
      .max(500)
      .optional()
      .describe('What the integration should do, such as "show the projects on my site".'),
  }),
};

/** The agent guide, the goal, and where every other page is. */
function integrationPrompt(docs: readonly DocPage[], siteUrl: string, goal: string | undefined): string {
  const guide = docs.find((doc) => doc.path === AGENT_GUIDE_PATH);
  return [
    `Help me integrate with the portfolio API at ${siteUrl}.${goal ? ` My goal: ${goal}` : ''}`,
    'Work in this order: read the guide below; try every call in sandbox mode first; use the OpenAPI description',
    `(${siteUrl}/openapi.json) for exact shapes; handle errors by their code and respect Retry-After.`,
    '',
    guide?.markdown ?? '',
    '## Other pages',
    '',
    ...docs
      .filter((doc) => doc !== guide)
      .map((doc) => `- [${doc.title}](${siteUrl}${doc.path}.md): ${doc.description}`),
  ].join('\n');
}
