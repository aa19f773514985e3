import type { APIRoute } from 'astro';
import { loadConfig } from '../../../../functions/config/env.ts';
import { mcpCatalog } from '../../../../functions/mcp/mcp-catalog.ts';
import { DISCOVERY_MEDIA_TYPE } from '../../../../functions/mcp/server-identity.ts';
import { textResponse } from '../../../lib/site-documents.ts';

/** The MCP Catalog (functions/mcp/mcp-catalog.ts): both servers and where their cards are. */
export const GET: APIRoute = () =>
  textResponse(`${JSON.stringify(mcpCatalog(loadConfig().siteUrl), null, 2)}\n`, DISCOVERY_MEDIA_TYPE);
