import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { loadSite } from '../config/site.ts';

/** The version both servers report; it follows the API's info.version. */
const MCP_SERVER_VERSION = '1.0.0';

/** The two servers: their path under the site and how they introduce themselves (named after the owner when read). */
export const MCP_SERVERS = {
  product: {
    path: '/mcp',
    cardPath: '/.well-known/mcp/server-card.json',
    name: 'portfolio',
    get title() {
      return `${loadSite().name}'s portfolio`;
    },
    get description() {
      return `Browse, search and compare ${loadSite().name}'s projects, and send a message.`;
    },
  },
  docs: {
    path: '/mcp/docs',
    cardPath: '/.well-known/mcp/docs/server-card.json',
    name: 'portfolio-docs',
    get title() {
      return `${loadSite().name}'s portfolio: documentation`;
    },
    description: 'Read and search the developer documentation of the portfolio API.',
  },
} as const;

export type McpServerId = keyof typeof MCP_SERVERS;

/** Where each card is published: the well-known path, and beside its server. */
export const SERVER_CARD_PATHS = Object.values(MCP_SERVERS).flatMap((server) => [
  server.cardPath,
  `${server.path}/server-card`,
]);

/**
 * The SDK's Server makes a JSON Schema validator (a new Ajv) unless given one, and it is only
 * used for elicitation, which these servers never ask for. Built per request, that Ajv was the
 * largest cost of a tool call, so every server shares one, made with the first server.
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

/** A new, empty server of the given kind, with its identity and instructions. */
export function newMcpServer(id: McpServerId, siteUrl: string, instructions: string): McpServer {
  const { name, title } = MCP_SERVERS[id];
  sharedValidator ??= new AjvJsonSchemaValidator();
  return new McpServer(
    { name, title, version: MCP_SERVER_VERSION, websiteUrl: siteUrl },
    { instructions, jsonSchemaValidator: sharedValidator },
  );
}
