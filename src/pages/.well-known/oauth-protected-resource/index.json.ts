import type { APIRoute } from 'astro';
import { protectedResourceMetadata } from '../../../lib/protected-resource.ts';

/**
 * RFC 9728 metadata of the origin as a whole (the API, the MCP servers, the pages). Served at
 * /.well-known/oauth-protected-resource; the build writes it here because that URL is also the
 * folder of the API's document (BUILT_ELSEWHERE in functions/site/discovery-documents.ts).
 */
export const GET: APIRoute = () => protectedResourceMetadata('');
