import type { APIRoute } from 'astro';
import { serverCardResponse } from '../../lib/server-cards.ts';

/** The product MCP server's card (functions/mcp/server-card.ts), generated at build from the server itself. */
export const GET: APIRoute = () => serverCardResponse('product', 'endpoint');
