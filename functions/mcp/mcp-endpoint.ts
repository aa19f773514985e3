import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { RequestContexts } from '../http/request-context.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import type { McpCaller } from './api-caller.ts';
import { admit, apiResponse, jsonRpcError, webRequest } from './mcp-admission.ts';

const ALLOW = 'POST';
const CORS_REQUEST_HEADERS =
  'Content-Type, Accept, Authorization, X-API-Key, X-Sandbox, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID';

export interface McpEndpointOptions {
  /** The server for one request; it is connected to a fresh transport and closed after the answer. */
  buildServer(caller: McpCaller): McpServer;
  /**
   * Resolves the caller as the API does (a bad X-Sandbox throws the API's ApiError), so MCP and
   * HTTP requests share one quota.
   */
  contexts: Pick<RequestContexts, 'of'>;
  isAllowedOrigin(origin: string): boolean;
  siteUrl: string;
}

/**
 * One MCP server over Streamable HTTP, stateless: every POST gets a new server and transport
 * (the SDK cannot reuse a stateless transport), answered as JSON, both closed afterwards. GET
 * (the optional SSE stream) and DELETE (ending a session) have nothing to do without sessions:
 * 405 with Allow: POST, as the transport specification allows. Failures before the SDK sees the
 * message answer in JSON-RPC's error shape, like the SDK's own.
 */
export function mcpEndpoint({ buildServer, contexts, isAllowedOrigin, siteUrl }: McpEndpointOptions) {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const admission = await admit(request, {
      contexts,
      isAllowedOrigin,
      allow: ALLOW,
      corsRequestHeaders: CORS_REQUEST_HEADERS,
    });
    if ('answer' in admission) return admission.answer;
    if ('other' in admission) {
      return jsonRpcError(405, 'Method Not Allowed: this stateless server answers POST only.', {
        ...admission.other.headers,
        allow: ALLOW,
      });
    }
    const { body, parsedBody, headers, caller } = admission.post;
    const server = buildServer(caller);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(
        webRequest(request, siteUrl, parsedBody === undefined ? body : null),
        { parsedBody },
      );
      return await apiResponse(response, headers);
    } finally {
      await transport.close();
      await server.close();
    }
  };
}
