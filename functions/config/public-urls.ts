/**
 * Where each absolute URL the service and the build publish points. The pages and documents live
 * on SITE_URL; the dynamic part (the API, the OAuth token endpoint, the MCP servers, the contact
 * form's post and the search results) answers on API_ORIGIN when the pages are served by a static
 * host, else on SITE_URL too. Every absolute URL of a dynamic path is made by serviceUrl, so no
 * document can name the one origin where the other answers.
 */
export interface PublicOrigins {
  /** Base URL of the pages and documents, without a trailing slash. */
  siteUrl: string;
  /** Origin of the dynamic part when it is not the site's (API_ORIGIN), else null. */
  apiOrigin: string | null;
}

/** Path prefixes the router owns (the API and the OAuth token endpoint), and the other paths the service answers. */
const ROUTER_PREFIXES = ['/api/', '/oauth/'] as const;
const PATHS_OUTSIDE_ROUTER = ['/mcp', '/mcp/docs', '/contact', '/contact.md', '/search', '/search.md'] as const;

/**
 * The same paths as a host's proxy rules say them (functions/hosts/static/redirects-file.ts,
 * vercel-config.ts and nginx-site.ts): exact paths, and prefixes that end in `/`.
 */
export const SERVICE_PATHS: { readonly exact: readonly string[]; readonly prefixes: readonly string[] } = {
  exact: ['/api', ...PATHS_OUTSIDE_ROUTER],
  prefixes: ROUTER_PREFIXES,
};

/** Whether the router answers `path`: the API (`/api` itself too) and OAuth. */
export function isRouterPath(path: string): boolean {
  return path === '/api' || ROUTER_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** The dynamic paths in words, for the configuration table. */
export const SERVICE_PATHS_TEXT = '/api/…, /oauth/…, /mcp, /mcp/docs and the posts of /contact and /search';

/** Whether `path` (without query) is answered per request by the service, not by a built file. */
export function isServicePath(path: string): boolean {
  return isRouterPath(path) || (PATHS_OUTSIDE_ROUTER as readonly string[]).includes(path);
}

/** The base URL of the dynamic part: API_ORIGIN, or the site itself. */
export function serviceBase({ siteUrl, apiOrigin }: PublicOrigins): string {
  return apiOrigin ?? siteUrl;
}

/**
 * The absolute URL of a dynamic path (with an optional query or fragment). A path the service
 * does not answer is a programming error: its URL belongs on SITE_URL.
 */
export function serviceUrl(origins: PublicOrigins, pathAndQuery: string): string {
  const path = pathAndQuery.replace(/[?#].*$/s, '');
  if (!isServicePath(path)) throw new Error(`${path} is not answered by the service; link it on SITE_URL`);
  return `${serviceBase(origins)}${pathAndQuery}`;
}

/**
 * Pages the service fills in per request that are also built as files: without a query the
 * file is the page (a static host serves it on SITE_URL); with one (the search results) only
 * the service can answer.
 */
const PAGE_PATHS = ['/contact', '/contact.md', '/search', '/search.md'] as const;

/**
 * The absolute URL a document publishes for `pathAndQuery`: the dynamic part's origin for what
 * only it answers (the API, OAuth, the MCP servers, a page with a query), SITE_URL for the rest.
 */
export function publicUrl(origins: PublicOrigins, pathAndQuery: string): string {
  const path = pathAndQuery.replace(/[?#].*$/s, '');
  const hasQuery = pathAndQuery.slice(path.length).startsWith('?');
  const page = (PAGE_PATHS as readonly string[]).includes(path);
  if (isServicePath(path) && (!page || hasQuery)) return serviceUrl(origins, pathAndQuery);
  return `${origins.siteUrl}${pathAndQuery}`;
}

/**
 * How a page refers to a dynamic path (a form's action, the URL its script fetches): by path when
 * the service shares the pages' origin, so a page keeps working wherever it is served from; on
 * API_ORIGIN otherwise.
 */
export function serviceHref(origins: PublicOrigins, pathAndQuery: string): string {
  return origins.apiOrigin === null ? pathAndQuery : serviceUrl(origins, pathAndQuery);
}
