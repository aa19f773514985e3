import type { RequestContext } from '../../functions/http/request-context.ts';
import type { Router } from '../../functions/http/router.ts';
import { apiCaller, type McpCaller } from '../../functions/mcp/api-caller.ts';
import { serverIdentity } from '../../functions/mcp/dual-era-server.ts';
import { mcpEraEndpoint, type EraEndpointOptions } from '../../functions/mcp/era-endpoint.ts';
import { mcpServers } from '../../functions/mcp/mcp-servers.ts';
import type { McpServerId } from '../../functions/mcp/server-identity.ts';
import { Catalog } from '../../functions/projects/catalog.ts';

const SITE = 'http://localhost:4321';

/**
 * One server's MCP endpoint in process, as mcp-routes.ts wires it, with the tools' API behind the
 * router `routerOf` gives (asked when a tool runs, so a test may make the endpoint before its
 * API starts): any Host and Origin pass, and every request's caller is `caller` (charged
 * nothing). `adjust` changes the options from those (to count what runs, or to close a fast path).
 */
export function inProcessMcpEndpoint(
  routerOf: () => Pick<Router, 'handle'>,
  id: McpServerId,
  caller: Partial<Pick<RequestContext, 'keyStatus' | 'sandbox'>> = {},
  adjust: (options: EraEndpointOptions) => EraEndpointOptions = (options) => options,
) {
  const servers = mcpServers({ catalog: new Catalog([], SITE), docs: [], siteUrl: SITE, apiOrigin: null });
  const context = { charge: () => ({}), ...caller } as unknown as RequestContext;
  const toolContext = (mcpCaller: McpCaller) => ({
    api: apiCaller({ handle: (request, paid) => routerOf().handle(request, paid) }, mcpCaller),
    requestId: mcpCaller.requestId,
  });
  return mcpEraEndpoint(
    adjust({
      siteUrl: SITE,
      hostVerdict: () => ({ ok: true }),
      isAllowedOrigin: () => true,
      contexts: { of: () => context },
      buildServer: (mcpCaller) => servers.build(id, toolContext(mcpCaller)),
      callTool: (mcpCaller, name, args, withLinks) =>
        servers.callTool(id, toolContext(mcpCaller), name, args, withLinks),
      reusableTool: (name) => servers.reusableTool(id, name),
      serverInfo: serverIdentity(id, SITE),
    }),
  );
}
