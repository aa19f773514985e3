import type { APIRoute } from 'astro';
import { registryEntryResponse } from '../../../lib/server-cards.ts';

/** The product MCP server's MCP Registry entry (functions/mcp/registry-entry.ts), what `npm run registry` publishes. */
export const GET: APIRoute = () => registryEntryResponse('product');
