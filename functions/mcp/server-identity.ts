import { loadSite } from '../config/site.ts';

/** The version both servers report; it follows the API's info.version. */
export const MCP_SERVER_VERSION = '1.0.0';

/**
 * The two servers: their path under the site, where their card lives and how they introduce
 * themselves (named after the owner when read). `cardPath` is the card's well-known URI as
 * SEP-2127 (draft) section "Endpoints" > ".well-known URI" names it, `/.well-known/mcp/server-card`;
 * the docs server, the second on the host, takes the same name under its own segment.
 */
export const MCP_SERVERS = {
  product: {
    path: '/mcp',
    cardPath: '/.well-known/mcp/server-card',
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
    cardPath: '/.well-known/mcp/docs/server-card',
    name: 'portfolio-docs',
    get title() {
      return `${loadSite().name}'s portfolio: documentation`;
    },
    description: 'Read and search the developer documentation of the portfolio API.',
  },
} as const;

export type McpServerId = keyof typeof MCP_SERVERS;

/** Where the card sits beside its server: `<streamable-http-url>/server-card`, the server-card extension's reserved path. */
export function cardBesideServer(id: McpServerId): string {
  return `${MCP_SERVERS[id].path}/server-card`;
}

/**
 * Every path a card is published at: the well-known URI, the same with `.json` (the paths the
 * first cards had, kept for clients that learned them), and beside the server. The server
 * serves each with SERVER_CARD_HEADERS; the tests fetch each.
 */
export const SERVER_CARD_PATHS: readonly string[] = (Object.keys(MCP_SERVERS) as McpServerId[]).flatMap((id) => [
  MCP_SERVERS[id].cardPath,
  `${MCP_SERVERS[id].cardPath}.json`,
  cardBesideServer(id),
]);

/**
 * The MCP Catalog: one document listing both servers and their cards, so a client that finds
 * one finds the other. Its path is the one the server-card extension's discovery document
 * names (modelcontextprotocol/experimental-ext-server-card, docs/discovery.md: "MCP Catalog" > "Well-Known URI").
 */
export const MCP_CATALOG_PATH = '/.well-known/mcp/catalog.json';

/**
 * SEP-2127 (draft), ".well-known URI": the card MUST be sent as `application/json`; the MCP
 * Catalog keeps the same type. RFC 8259 section 11 defines no charset parameter for it, so
 * none is added.
 */
export const DISCOVERY_MEDIA_TYPE = 'application/json';

/**
 * SEP-2127 (draft), ".well-known URI" > "CORS Requirements": discovery endpoints MUST carry
 * these headers, word for word. Allow-Methods and Allow-Headers matter in the answer to a
 * preflight, so the static server answers OPTIONS on these paths with them too. HEAD needs no
 * mention: it is a CORS-safelisted method.
 */
export const DISCOVERY_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type',
} as const;

/** `localhost` -> `localhost`, `ada.example` -> `example.ada`: the namespace half of a card's reverse-DNS name. */
function reverseDns(siteUrl: string): string {
  return new URL(siteUrl).hostname.split('.').reverse().join('.');
}

/** A card's `name` (SEP-2127 "Field Descriptions": reverse-DNS, exactly one "/"), e.g. `example.ada/portfolio`. */
export function cardName(id: McpServerId, siteUrl: string): string {
  return `${reverseDns(siteUrl)}/${MCP_SERVERS[id].name}`;
}
