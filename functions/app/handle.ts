import type { DocPage } from '../site/doc-page.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import type { AppViewReader } from '../mcp/app-views.ts';
import type { Eventually } from '../limits/rate-limiter.ts';
import type { Api } from './app.ts';
import { isRouterPath, isServicePath } from '../config/public-urls.ts';
import { serviceEndpoints, type PagePath } from './endpoints.ts';

/**
 * The whole service as one function: the API and the OAuth token endpoint through the router,
 * the contact form, the search page and both MCP servers through the endpoint table. It knows no
 * host: the node listener (functions/hosts/node/request-listener.ts), `astro dev`
 * (src/lib/dev-service.ts) and the api test tier (tests/support/api.ts) all call it. A cached read
 * is answered at once, not as a promise: each promise costs an allocation and a turn per request.
 */
export type Handle = (request: ApiRequest) => Eventually<ApiResponse>;

/**
 * Whether the service answers this path per request (known without building it). Every other
 * path is its host's: the built files in production, Astro under `astro dev`. The list lives
 * with the rule that decides which origin names each path (functions/config/public-urls.ts);
 * tests/unit/service-paths.test.ts checks that it holds every endpoint of the table.
 */
export { isServicePath };

/** A path the service does not answer, should a host hand it one anyway. */
const NOT_FOUND: Readonly<ApiResponse> = {
  status: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: 'Not Found\n',
};

/**
 * The service's one entry, over `api`; `pageTemplate` gives the built HTML of a page endpoint,
 * `appViews` the built MCP Apps views.
 */
export function serviceHandle(
  api: Api,
  docs: readonly DocPage[],
  pageTemplate: (path: PagePath) => string,
  appViews?: AppViewReader,
): Handle {
  const endpoints = serviceEndpoints(api, docs, pageTemplate, appViews);
  return (request) => {
    if (isRouterPath(request.path)) return api.router.answer(request);
    const endpoint = endpoints.get(request.path);
    return endpoint === undefined
      ? Promise.resolve({ ...NOT_FOUND, headers: { ...NOT_FOUND.headers } })
      : endpoint(request);
  };
}
