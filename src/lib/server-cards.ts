import { loadConfig } from '../../functions/config/env.ts';
import { buildDocsServer } from '../../functions/mcp/docs-server.ts';
import { buildProductServer } from '../../functions/mcp/product-server.ts';
import { serverCard } from '../../functions/mcp/server-card.ts';
import type { ToolContext } from '../../functions/mcp/tool-registry.ts';
import { buildCatalog } from './catalog.ts';
import { docPages } from './docs.ts';
import { textResponse } from './site-documents.ts';

/** Listing a server calls no tool, so the build needs no API behind it. */
const LISTING_ONLY: ToolContext = {
  api: () => Promise.reject(new Error('No tool runs while a server card is built')),
  requestId: 'build',
};

/** The server card of /mcp or /mcp/docs, read at build from the same server the production process runs. */
export async function serverCardResponse(id: 'product' | 'docs'): Promise<Response> {
  const siteUrl = loadConfig().siteUrl;
  const server =
    id === 'product'
      ? buildProductServer({ catalog: await buildCatalog(), siteUrl }, LISTING_ONLY)
      : buildDocsServer({ ...LISTING_ONLY, docs: await docPages(), siteUrl });
  return textResponse(
    `${JSON.stringify(await serverCard(id, server, siteUrl), null, 2)}\n`,
    'application/json; charset=utf-8',
  );
}
