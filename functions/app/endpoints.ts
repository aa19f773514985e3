import type { Api } from './app.ts';
import { contactFormHandler } from '../contact/contact-form.ts';
import { ContactPage } from '../contact/contact-page.ts';
import type { DocPage } from '../docs/doc-page.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import { mcpRoutes } from '../mcp/mcp-routes.ts';
import { MCP_SERVERS } from '../mcp/server-identity.ts';
import { searchPageHandler } from '../search/search-page-handler.ts';
import { SearchPage } from '../search/search-page.ts';

/** A path answered per request, outside the router. */
export type Endpoint = (request: ApiRequest) => Promise<ApiResponse>;

/** Path prefixes the router owns: the API, and the OAuth token endpoint (`/api` itself too). */
const ROUTER_PREFIXES = ['/api/', '/oauth/'] as const;

/** Whether the router answers this path. */
export function isRouterPath(path: string): boolean {
  return path === '/api' || ROUTER_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** Built pages that an endpoint fills in per request; each page's HTML carries `{{slots}}`. */
const PAGE_ENDPOINTS = ['/contact', '/search'] as const;
export type PagePath = (typeof PAGE_ENDPOINTS)[number];

/** The pages' Markdown twins, written per request by the same endpoints. */
const TWIN_ENDPOINTS = ['/contact.md', '/search.md'] as const;

/** Every path of the table below, known without building it. */
export const ENDPOINT_PATHS: ReadonlySet<string> = new Set([
  ...PAGE_ENDPOINTS,
  ...TWIN_ENDPOINTS,
  ...Object.values(MCP_SERVERS).map((server) => server.path),
]);

/** Whether the page endpoint `path` fills in a built page (and so needs its template). */
export function isPageEndpoint(path: string): path is PagePath {
  return (PAGE_ENDPOINTS as readonly string[]).includes(path);
}

/**
 * Every path the service answers per request besides the router: the contact form, the search
 * page (each with its Markdown twin) and the two MCP servers. The production server (functions/server/start-server.ts) and
 * `astro dev` (src/lib/dev-mount.ts) both mount this one table, so the owner edits against the
 * real service. `pageTemplate` gives the built HTML of a page endpoint.
 */
export function serviceEndpoints(
  api: Api,
  docs: readonly DocPage[],
  pageTemplate: (path: PagePath) => string,
): Map<string, Endpoint> {
  const { contact, formTokens, quotas, search, config } = api.services;
  const contactPage = contactFormHandler(
    contact,
    formTokens,
    new ContactPage(pageTemplate('/contact')),
    quotas,
    config.siteUrl,
  );
  const searchPage = searchPageHandler(
    search,
    new SearchPage(pageTemplate('/search')),
    quotas.limiter('anonymous', 'read'),
    config.siteUrl,
  );
  return new Map<string, Endpoint>([
    ['/contact', contactPage],
    ['/contact.md', contactPage],
    ['/search', searchPage],
    ['/search.md', searchPage],
    ...mcpRoutes({ router: api.router, config: api.services.config, catalog: api.services.catalog, docs }),
  ]);
}
