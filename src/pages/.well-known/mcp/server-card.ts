import type { APIRoute } from 'astro';
import { serverCardResponse } from '../../../lib/server-cards.ts';

/** The product MCP server's card at the well-known URI the first drafts named (functions/mcp/server-identity.ts SERVER_CARD_PATHS). */
export const GET: APIRoute = () => serverCardResponse('product');
