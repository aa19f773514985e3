// One MCP endpoint for both protocol eras, on the MCP SDK v2's HTTP handler (createMcpHandler):
// 2026-07-28 requests (server/discover, `_meta` in every request, Mcp-Method/Mcp-Name headers)
// and 2025-era ones (initialize, then the same methods) reach the same server definition.
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import type { RequestContexts } from '../http/request-context.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import type { McpCaller } from './api-caller.ts';
import { admit, apiResponse, webRequest } from './mcp-admission.ts';

/** GET and DELETE go to the SDK, which answers them as the revision says for a server of both eras. */
const ALLOW = 'GET, POST, DELETE';
const CORS_REQUEST_HEADERS =
  'Content-Type, Accept, Authorization, X-API-Key, X-Sandbox, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID';

export interface EraEndpointOptions {
  /** The server for one request of either era, made by the SDK's handler for that request alone. */
  buildServer(caller: McpCaller): McpServer;
  contexts: Pick<RequestContexts, 'of'>;
  isAllowedOrigin(origin: string): boolean;
  siteUrl: string;
}

/**
 * The Origin check, the preflight and the per-message quota are this endpoint's (mcp-admission.ts),
 * as on the 1.x endpoint; everything after is the SDK handler's: it tells the eras apart, checks
 * the headers against the body and the protocol version, and builds one server per request
 * through the factory. The factory learns who called from the web Request it was handed: that
 * Request is made here, one per call, and mapped to its caller until it is collected.
 */
export function mcpEraEndpoint({ buildServer, contexts, isAllowedOrigin, siteUrl }: EraEndpointOptions) {
  const callers = new WeakMap<Request, McpCaller>();
  // The default response mode answers in one JSON body unless a handler sends a message before
  // its result, which no tool here does.
  const handler = createMcpHandler(({ requestInfo }) => {
    const caller = requestInfo === undefined ? undefined : callers.get(requestInfo);
    if (caller === undefined) throw new Error('An MCP request reached the server factory without its caller');
    return buildServer(caller);
  });

  return async (request: ApiRequest): Promise<ApiResponse> => {
    const admission = await admit(request, {
      contexts,
      isAllowedOrigin,
      allow: ALLOW,
      corsRequestHeaders: CORS_REQUEST_HEADERS,
    });
    if ('answer' in admission) return admission.answer;
    if ('other' in admission) {
      const web = webRequest(request, siteUrl, null);
      callers.set(web, admission.other.caller);
      return apiResponse(await handler.fetch(web), admission.other.headers);
    }
    const { body, parsedBody, headers, caller } = admission.post;
    const web = webRequest(request, siteUrl, parsedBody === undefined ? body : null);
    callers.set(web, caller);
    return apiResponse(await handler.fetch(web, parsedBody === undefined ? {} : { parsedBody }), headers);
  };
}
