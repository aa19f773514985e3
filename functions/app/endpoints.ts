import type { Api } from './app.ts';
import { contactFormHandler } from '../contact/contact-form.ts';
import { ContactPage } from '../contact/contact-page.ts';
import type { DocPage } from '../site/doc-page.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import type { Eventually } from '../limits/rate-limiter.ts';
import type { AppViewReader } from '../mcp/app-views.ts';
import { mcpRoutes } from '../mcp/mcp-routes.ts';
import { MCP_SERVERS } from '../mcp/server-identity.ts';
import { searchPageHandler } from '../search/search-page-handler.ts';
import { SearchPage } from '../search/search-page.ts';

/** A path answered per request, outside the router; at once when nothing had to be waited for. */
type Endpoint = (request: ApiRequest) => Eventually<ApiResponse>;

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
 * page (each with its Markdown twin) and the two MCP servers. The service's one entry
 * (functions/app/handle.ts) is made of this table and the router. `pageTemplate` gives the built
 * HTML of a page endpoint. The pages are the site's own: their visitors are charged as anonymous
 * callers by client IP (RequestContexts.visitor). `appViews` reads the built MCP Apps views.
 */
export function serviceEndpoints(
  api: Api,
  docs: readonly DocPage[],
  pageTemplate: (path: PagePath) => string,
  appViews?: AppViewReader,
): Map<string, Endpoint> {
  const { contact, signing, search, config, catalog } = api.services;
  const { router, contexts } = api;
  const contactForm = contactFormHandler(
    contact,
    () => signing.load().then((signers) => signers.formTokens),
    new ContactPage(pageTemplate('/contact')),
    config,
  );
  const searchForm = searchPageHandler(search, new SearchPage(pageTemplate('/search')), config);
  const contactPage: Endpoint = (request) => contactForm(request, contexts.visitor(request));
  const searchPage: Endpoint = (request) => searchForm(request, contexts.visitor(request));
  return new Map<string, Endpoint>([
    ['/contact', contactPage],
    ['/contact.md', contactPage],
    ['/search', searchPage],
    ['/search.md', searchPage],
    ...mcpRoutes({ router, contexts, config, catalog, docs, appViews }),
  ]);
}
