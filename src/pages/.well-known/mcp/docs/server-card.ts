import type { APIRoute } from 'astro';
import { serverCardResponse } from '../../../../lib/server-cards.ts';

/** The docs MCP server's card at its well-known URI (functions/mcp/server-identity.ts SERVER_CARD_PATHS). */
export const GET: APIRoute = () => serverCardResponse('docs');
