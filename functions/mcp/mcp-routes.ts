import type { Api } from '../app.ts';
import type { DocPage } from '../docs/doc-page.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import { apiCaller } from './api-caller.ts';
import { mcpEndpoint } from './mcp-endpoint.ts';
import { mcpServers } from './mcp-servers.ts';
import { originPolicy } from './origins.ts';
import { MCP_SERVERS } from './server-identity.ts';

/** Both MCP servers by path, each answering with the API (and so its rules) behind its tools. */
export function mcpRoutes(
  api: Api,
  docs: readonly DocPage[],
): Map<string, (request: ApiRequest) => Promise<ApiResponse>> {
  const { config, catalog } = api.services;
  const siteUrl = config.siteUrl;
  const isAllowedOrigin = originPolicy(siteUrl, config.mcpAllowedOrigins);
  const servers = mcpServers({ catalog, docs, siteUrl });
  const contextOf = (caller: Parameters<typeof apiCaller>[1]) => ({
    api: apiCaller(api.router, caller),
    requestId: caller.requestId,
  });
  // The router resolves the caller and charges it, so MCP and HTTP requests share one quota.
  const chargeRequests = (request: ApiRequest, units: number) => api.router.chargeCaller(request, 'read', units);
  return new Map([
    [
      MCP_SERVERS.product.path,
      mcpEndpoint({
        siteUrl,
        isAllowedOrigin,
        chargeRequests,
        buildServer: (caller) => servers.build('product', contextOf(caller)),
      }),
    ],
    [
      MCP_SERVERS.docs.path,
      mcpEndpoint({
        siteUrl,
        isAllowedOrigin,
        chargeRequests,
        buildServer: (caller) => servers.build('docs', contextOf(caller)),
      }),
    ],
  ]);
}
