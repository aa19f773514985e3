import type { Api } from '../app.ts';
import type { DocPage } from '../docs/doc-page.ts';
import { resolveContext } from '../http/request-context.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import { charge } from '../limits/charge.ts';
import { apiCaller } from './api-caller.ts';
import { buildDocsServer } from './docs-server.ts';
import { mcpEndpoint } from './mcp-endpoint.ts';
import { originPolicy } from './origins.ts';
import { buildProductServer } from './product-server.ts';
import { MCP_SERVERS } from './server-identity.ts';

/** Both MCP servers by path, each answering with the API (and so its rules) behind its tools. */
export function mcpRoutes(api: Api, docs: readonly DocPage[]): Map<string, (request: ApiRequest) => Promise<ApiResponse>> {
  const { config, catalog } = api.services;
  const siteUrl = config.siteUrl;
  const isAllowedOrigin = originPolicy(siteUrl, config.mcpAllowedOrigins);
  const contextOf = (caller: Parameters<typeof apiCaller>[1]) => ({ api: apiCaller(api.router, caller), requestId: caller.requestId });
  const verify = (credential: string) => api.services.keys.verify(credential);
  // The caller and tier are resolved as the router resolves them, so MCP and HTTP reads share one quota.
  const chargeReads = (request: ApiRequest, units: number) => {
    const context = resolveContext(request, verify);
    return units === 0 ? {} : charge(api.services.quotas.limiter(context.tier, 'read'), context.quotaKey, units, 'reads');
  };
  return new Map([
    [
      MCP_SERVERS.product.path,
      mcpEndpoint({ siteUrl, isAllowedOrigin, chargeReads, buildServer: (caller) => buildProductServer({ catalog, siteUrl }, contextOf(caller)) }),
    ],
    [
      MCP_SERVERS.docs.path,
      mcpEndpoint({ siteUrl, isAllowedOrigin, chargeReads, buildServer: (caller) => buildDocsServer({ ...contextOf(caller), docs, siteUrl }) }),
    ],
  ]);
}
