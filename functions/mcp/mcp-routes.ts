import type { Config } from '../config/env.ts';
import type { DocPage } from '../site/doc-page.ts';
import type { RequestContexts } from '../http/request-context.ts';
import type { Router } from '../http/router.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import type { Eventually } from '../limits/rate-limiter.ts';
import type { Catalog } from '../projects/catalog.ts';
import type { AppViewReader } from './app-views.ts';
import { apiCaller } from './api-caller.ts';
import { serverIdentity } from './dual-era-server.ts';
import { mcpEraEndpoint } from './era-endpoint.ts';
import { mcpServers } from './mcp-servers.ts';
import { hostPolicy } from './hosts.ts';
import { originPolicy } from './origins.ts';
import { MCP_SERVERS, type McpServerId } from './server-identity.ts';

/** What the MCP servers are built from: the API's router behind their tools, its callers, and what they publish. */
interface McpSources {
  router: Router;
  contexts: Pick<RequestContexts, 'of'>;
  config: Pick<Config, 'siteUrl' | 'apiOrigin' | 'backendOrigin' | 'host' | 'mcpAllowedOrigins' | 'mcpAllowedHosts'>;
  catalog: Catalog;
  docs: readonly DocPage[];
  /** The built MCP Apps views (app-views.ts). */
  appViews?: AppViewReader;
}

/** Both MCP servers by path, each answering with the API (and so its rules) behind its tools. */
export function mcpRoutes({
  router,
  contexts,
  config,
  catalog,
  docs,
  appViews,
}: McpSources): Map<string, (request: ApiRequest) => Eventually<ApiResponse>> {
  const siteUrl = config.siteUrl;
  const isAllowedOrigin = originPolicy(siteUrl, config.mcpAllowedOrigins);
  const hostVerdict = hostPolicy(config, config.host, config.mcpAllowedHosts);
  const servers = mcpServers({ catalog, docs, siteUrl, apiOrigin: config.apiOrigin, appViews });
  const contextOf = (caller: Parameters<typeof apiCaller>[1]) => ({
    api: apiCaller(router, caller),
    requestId: caller.requestId,
  });
  return new Map(
    (Object.keys(MCP_SERVERS) as McpServerId[]).map((id) => [
      MCP_SERVERS[id].path,
      mcpEraEndpoint({
        siteUrl,
        hostVerdict,
        isAllowedOrigin,
        contexts,
        buildServer: (caller) => servers.build(id, contextOf(caller)),
        callTool: (caller, name, args, withLinks) => servers.callTool(id, contextOf(caller), name, args, withLinks),
        reusableTool: (name) => servers.reusableTool(id, name),
        serverInfo: serverIdentity(id, siteUrl),
      }),
    ]),
  );
}
