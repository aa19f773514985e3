import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { loadSite } from '../config/site.ts';

/** The version both servers report; it follows the API's info.version. */
const MCP_SERVER_VERSION = '1.0.0';

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
 * names (docs/discovery.md, "MCP Catalog" > "Well-Known URI").
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

/**
 * The SDK's McpServer declares `listChanged: true` for resources and prompts as soon as the
 * first one is registered. That flag promises notifications/…/list_changed, which a stateless
 * server (a new one per request, no open stream) never sends, and SEP-2127 reads it as "this
 * list changes at run time", which ours do not. So it is withdrawn just before the server
 * connects, for initialize and the card alike (tools are registered without it, tool-registry.ts).
 */
class StatelessMcpServer extends McpServer {
  override async connect(transport: Transport): Promise<void> {
    if (this.answers('resources/list')) this.server.registerCapabilities({ resources: { listChanged: undefined } });
    if (this.answers('prompts/list')) this.server.registerCapabilities({ prompts: { listChanged: undefined } });
    return super.connect(transport);
  }

  /** Whether a handler for the method is installed (the SDK's only public way to ask: it throws if so). */
  private answers(method: string): boolean {
    try {
      this.server.assertCanSetRequestHandler(method);
      return false;
    } catch {
      return true;
    }
  }
}

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
  return new StatelessMcpServer(
    { name, title, version: MCP_SERVER_VERSION, websiteUrl: siteUrl },
    { instructions, jsonSchemaValidator: sharedValidator },
  );
}
