import { site } from '../config/site.ts';

/** The version both servers report; it follows the API's info.version. */
export const MCP_SERVER_VERSION = '1.0.0';

/** The two servers: their path under the site and how they introduce themselves. */
export const MCP_SERVERS = {
  product: {
    path: '/mcp',
    name: 'portfolio',
    title: `${site.name}'s portfolio`,
    description: `Browse, search and compare ${site.name}'s projects, and contact her.`,
  },
  docs: {
    path: '/mcp/docs',
    name: 'portfolio-docs',
    title: `${site.name}'s portfolio: documentation`,
    description: 'Read and search the developer documentation of the portfolio API.',
  },
} as const;

export type McpServerId = keyof typeof MCP_SERVERS;

/** Where each card is published: the well-known path, and beside its server. */
export const SERVER_CARD_PATHS = [
  '/.well-known/mcp/server-card.json',
  '/mcp/server-card',
  '/.well-known/mcp/docs/server-card.json',
  '/mcp/docs/server-card',
] as const;
