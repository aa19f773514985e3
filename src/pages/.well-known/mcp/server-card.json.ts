import type { APIRoute } from 'astro';
import { serverCardResponse } from '../../../lib/server-cards.ts';

/** The product MCP server's card, the well-known copy: the draft's card plus serverInfo, transport and capabilities (functions/mcp/server-card.ts). */
export const GET: APIRoute = () => serverCardResponse('product', 'well-known');
