import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import type { AppViewReader } from './app-views.ts';
import type { DocPage } from '../site/doc-page.ts';
import type { Catalog } from '../projects/catalog.ts';
import { buildDocsServer } from './docs-server.ts';
import { DOCS_TOOLS } from './docs-tools.ts';
import { PRODUCT_TOOLS } from './product-tools.ts';
import { buildProductServer } from './product-server.ts';
import { serverCardJson, type CardCopy } from './server-card.ts';
import type { McpServerId } from './server-identity.ts';
import { answerToolCall, isReusableTool, type ToolContext } from './tool-registry.ts';

/** What both servers are made from: the same at build (from content/) and at run time (from the build). */
export interface McpServerSources {
  catalog: Catalog;
  docs: readonly DocPage[];
  siteUrl: string;
  /** Where the servers answer when not on the site (API_ORIGIN); their cards name it. */
  apiOrigin: string | null;
  /** The built MCP Apps views of the product server (app-views.ts). */
  appViews?: AppViewReader;
}

/** Listing a server calls no tool, so a card needs no API behind it. */
const LISTING_ONLY: ToolContext = {
  api: () => Promise.reject(new Error('No tool runs while a server card is built')),
  requestId: 'server-card',
};

/**
 * Builds either server, and its cards: the file the build writes beside each server and the
 * resource mcp://server-card.json a running server returns are the same bytes, from the same
 * code; the well-known copy asks a server built here how it answers initialize. Each copy is
 * made once per process, on first read.
 */
export function mcpServers({ catalog, docs, siteUrl, apiOrigin, appViews }: McpServerSources) {
  const cards = new Map<`${McpServerId} ${CardCopy}`, Promise<string>>();

  function card(id: McpServerId, copy: CardCopy = 'endpoint'): Promise<string> {
    const key = `${id} ${copy}` as const;
    let made = cards.get(key);
    if (made === undefined) {
      made = serverCardJson(id, copy, () => build(id, LISTING_ONLY), { siteUrl, apiOrigin });
      // A failure is not remembered: the next read tries again.
      made.catch(() => cards.delete(key));
      cards.set(key, made);
    }
    return made;
  }

  function build(id: McpServerId, context: ToolContext): McpServer {
    const readCard = () => card(id, 'endpoint');
    return id === 'product'
      ? buildProductServer({ catalog, siteUrl, appViews }, context, readCard)
      : buildDocsServer({ ...context, docs, siteUrl }, readCard);
  }

  /** One tools/call of either server, as its tools/call handler answers it; undefined for a tool it does not have. */
  function callTool(
    id: McpServerId,
    context: ToolContext,
    name: string,
    args: Record<string, unknown> | undefined,
    withLinks = true,
  ): Promise<CallToolResult | undefined> {
    return id === 'product'
      ? answerToolCall(PRODUCT_TOOLS, { ...context, siteUrl }, name, args, withLinks)
      : answerToolCall(DOCS_TOOLS, { ...context, docs, siteUrl }, name, args, withLinks);
  }

  /** Whether a successful call of that tool may be answered again to another public caller (tool-registry.ts). */
  function reusableTool(id: McpServerId, name: string): boolean {
    return id === 'product' ? isReusableTool(PRODUCT_TOOLS, name) : isReusableTool(DOCS_TOOLS, name);
  }

  return { build, card, callTool, reusableTool };
}
