import { serviceUrl, type PublicOrigins } from '../config/public-urls.ts';
import { loadSite } from '../config/site.ts';
import { siteIcons } from '../site/site-icons.ts';

/** The version both servers report; it follows the API's info.version. */
export const MCP_SERVER_VERSION = '1.0.0';

/**
 * The two servers: their path under the site, where their card lives and how they introduce
 * themselves (named after the owner when read). `cardPath` is the well-known URI the first
 * server-card drafts named (SEP-1649, then SEP-2127 until 2026-07), kept for clients that
 * learned it; the current draft reserves the path beside the endpoint instead (cardBesideServer).
 * A card's title and description are at most 100 characters each (the server-card schema and the
 * registry's server.json schema, `title` and `description`), so a long owner name is cut to fit.
 */
export const MCP_SERVERS = {
  product: {
    path: '/mcp',
    cardPath: '/.well-known/mcp/server-card',
    name: 'portfolio',
    get title() {
      return fitted(`${loadSite().name}'s portfolio`);
    },
    get description() {
      return fitted(`Browse, search and compare ${loadSite().name}'s projects, and send a message.`);
    },
  },
  docs: {
    path: '/mcp/docs',
    cardPath: '/.well-known/mcp/docs/server-card',
    name: 'portfolio-docs',
    get title() {
      return fitted(`${loadSite().name}'s portfolio: documentation`);
    },
    description: 'Read and search the developer documentation of the portfolio API.',
  },
} as const;

export type McpServerId = keyof typeof MCP_SERVERS;

/** The most characters a card's or a registry entry's title and description may have. */
const MAX_LISTED_TEXT = 100;

/** `text`, or its first 99 characters and an ellipsis when it is longer than 100. */
function fitted(text: string): string {
  return text.length <= MAX_LISTED_TEXT ? text : `${text.slice(0, MAX_LISTED_TEXT - 1)}…`;
}

/**
 * Where a server's MCP Registry entry (server.json, functions/mcp/registry-entry.ts) is published:
 * beside its well-known card, so both servers' entries sit under the one well-known folder
 * a publisher points `mcp-publisher publish` at.
 */
export function registryEntryPath(id: McpServerId): string {
  return MCP_SERVERS[id].cardPath.replace(/server-card$/, 'server.json');
}

/** Where the card sits beside its server: `<streamable-http-url>/server-card`, the server-card extension's reserved path. */
export function cardBesideServer(id: McpServerId): string {
  return `${MCP_SERVERS[id].path}/server-card`;
}

/**
 * Every path a card is published at: beside the server (the current draft's reserved location),
 * the well-known URI and the same with `.json` (the paths the first cards had, kept for clients
 * that learned them). The server serves each with SERVER_CARD_CORS_HEADERS; the tests fetch each.
 */
export const SERVER_CARD_PATHS: readonly string[] = (Object.keys(MCP_SERVERS) as McpServerId[]).flatMap((id) => [
  cardBesideServer(id),
  MCP_SERVERS[id].cardPath,
  `${MCP_SERVERS[id].cardPath}.json`,
]);

/**
 * The server-card extension (modelcontextprotocol/experimental-ext-server-card, docs/discovery.md,
 * "MCP Server Cards" and "Hosted Server Card Location"): a card is sent as this type wherever it
 * is hosted. JSON has no charset parameter (RFC 8259 section 11), so none is added.
 */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/**
 * The same document, "Security Considerations" > "CORS Requirements": hosted cards MUST carry
 * these headers, word for word. Allow-Methods and Allow-Headers matter in the answer to a
 * preflight, so the static server answers OPTIONS on these paths with them too; Expose-Headers
 * lets a browser client read the ETag it revalidates with ("Caching"). HEAD needs no mention:
 * it is a CORS-safelisted method.
 */
export const SERVER_CARD_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
} as const;

/** `localhost` -> `localhost`, `ada.example` -> `example.ada`: the namespace half of a card's reverse-DNS name. */
function reverseDns(siteUrl: string): string {
  return new URL(siteUrl).hostname.split('.').reverse().join('.');
}

/** A card's `name` (the server-card schema, `ServerCard.name`: reverse-DNS, exactly one "/"), e.g. `example.ada/portfolio`. */
export function cardName(id: McpServerId, siteUrl: string): string {
  return `${reverseDns(siteUrl)}/${MCP_SERVERS[id].name}`;
}

/**
 * How a server is introduced wherever it is listed, defined once: its server card
 * (functions/mcp/server-card.ts), its MCP Registry entry (functions/mcp/registry-entry.ts) and,
 * for name, title, version and icons, the `serverInfo` it answers with (dual-era-server.ts
 * serverIdentity). `endpoint` is the absolute URL of its Streamable HTTP endpoint.
 */
export function listedIdentity(id: McpServerId, origins: PublicOrigins) {
  const { siteUrl } = origins;
  return {
    name: cardName(id, siteUrl),
    version: MCP_SERVER_VERSION,
    title: MCP_SERVERS[id].title,
    description: MCP_SERVERS[id].description,
    websiteUrl: siteUrl,
    icons: siteIcons(siteUrl),
    endpoint: serviceUrl(origins, MCP_SERVERS[id].path),
  };
}
