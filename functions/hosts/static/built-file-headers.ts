import type { PublicOrigins } from '../../config/public-urls.ts';
import { BUILT_ELSEWHERE, DOCUMENT_ALIASES, isOpenToAll } from '../../site/discovery-documents.ts';
import { OPEN_TO_ALL } from '../../http/cors.ts';
import { DISCOVERY_LINKS } from '../../http/router.ts';
import { securityHeaders } from '../../http/security-headers.ts';
import { REGISTRY_DOCUMENT_PATHS } from '../../mcp/registry-entry.ts';
import { SERVER_CARD_CORS_HEADERS, SERVER_CARD_PATHS } from '../../mcp/server-identity.ts';
import { appendLink, markdownAlternateLink } from '../../site/markdown-twin.ts';
import { mediaTypeFor } from './media-types.ts';

/** One URL path of the built site: the file it is served from and the headers decided for it. */
export interface ServedFile {
  /** The file under the client dir, as a URL path (`/pages/x.html`). */
  file: string;
  /**
   * Lower-case names. What a host computes from the bytes it sends (ETag, Content-Length,
   * Content-Encoding, and Vary: Accept-Encoding) is not here; `vary` is only `Accept`, on the
   * pages and twins that Markdown negotiation chooses between.
   */
  headers: Readonly<Record<string, string>>;
}

/** What every host of the built files serves, decided once (the Node server and the generated host rules). */
export interface HeaderTable {
  /** Every served URL path, by clean URL. */
  paths: ReadonlyMap<string, ServedFile>;
  /** Pages (by clean URL) that have a Markdown twin, and the twin's URL path. */
  twins: ReadonlyMap<string, string>;
  /**
   * What a page's own URL answers when Accept prefers Markdown (by clean URL, the same pages as
   * `twins`): the twin's file, with the twin's headers but NEGOTIATED_MARKDOWN_CACHE.
   */
  negotiated: ReadonlyMap<string, ServedFile>;
  /** The page that answers every missing path (404), and its Markdown twin. */
  notFound?: ServedFile;
  notFoundMarkdown?: ServedFile;
}

/**
 * The rules the build writes for static hosts into the client dir (scripts/host-rules.ts): each
 * host reads its own and serves none of them, so neither does any other host of the same files.
 */
export const VERCEL_IGNORE = '/.vercelignore';
export const HOST_RULE_FILES: ReadonlySet<string> = new Set([
  '/_headers',
  '/_redirects',
  '/vercel.json',
  VERCEL_IGNORE,
]);

/** The not-found page and its Markdown twin, kept aside rather than served at their own paths. */
const NOT_FOUND = { html: '/404.html', markdown: '/404.md' } as const;

/**
 * Headers a path carries beside the common ones. The home page and the catalog point agents at
 * the catalog and the description (RFC 8288 links); HEAD on the catalog answers with its own Link
 * (RFC 9727 section 2). Discovery and other public documents are read by agents and tools in any
 * origin, and so are the MCP Registry's documents (functions/mcp/registry-entry.ts); server cards
 * by MCP clients, with the CORS headers their draft asks for (functions/mcp/server-identity.ts).
 */
function pathHeaders(urlPath: string, serverCards: ReadonlySet<string>): Record<string, string> {
  if (serverCards.has(urlPath)) return SERVER_CARD_CORS_HEADERS;
  const links: Record<string, string> =
    urlPath === '/' || urlPath === '/.well-known/api-catalog' ? { link: DISCOVERY_LINKS } : {};
  const openToAll = isOpenToAll(urlPath) || REGISTRY_DOCUMENT_PATHS.includes(urlPath);
  return { ...links, ...(openToAll ? OPEN_TO_ALL : {}) };
}

/**
 * The header table of a build, from the list of its client files as URL paths (without the
 * precompressed `.br`/`.gz` variants, which are served in place of their file).
 * `pages/x.html` is served at the clean URL `/pages/x`; a document the build could not write at
 * its URL (BUILT_ELSEWHERE) at that URL only; other files at their own path. A page with a
 * Markdown twin (`x.md` beside `x.html`) advertises it in a Link header with an absolute URL, like
 * the `<link>` in each page's head. An alias (DOCUMENT_ALIASES) is served as the document it
 * names. `404.html` and `404.md` live at no address.
 */
export function builtFileHeaders(files: readonly string[], site: PublicOrigins): HeaderTable {
  const fileSet = new Set(files.filter((file) => !HOST_RULE_FILES.has(file)));
  const twins = new Map<string, string>();
  for (const file of fileSet) {
    if (!file.endsWith('.html')) continue;
    const twin = file === '/index.html' ? '/index.md' : file.replace(/\.html$/, '.md');
    if (fileSet.has(twin)) twins.set(servedAt(file), twin);
  }
  const negotiated = new Set([...twins.keys(), ...twins.values()]);
  // HSTS over https, and the API origin (when there is one) in the security policy.
  const common = securityHeaders(site);
  const serverCards = new Set(SERVER_CARD_PATHS);
  const paths = new Map<string, ServedFile>();
  let notFound: ServedFile | undefined;
  let notFoundMarkdown: ServedFile | undefined;
  for (const file of fileSet) {
    const urlPath = servedAt(file);
    const headers: Record<string, string> = { ...common, ...pathHeaders(urlPath, serverCards) };
    const twin = twins.get(urlPath);
    if (twin !== undefined) headers.link = appendLink(headers.link, markdownAlternateLink(`${site.siteUrl}${twin}`));
    headers['content-type'] = mediaTypeFor(file);
    headers['cache-control'] = cacheControlFor(file);
    // The representation of a page or twin depends on Accept (RFC 9110 section 12.5.5).
    if (negotiated.has(urlPath)) headers.vary = 'Accept';
    const served = { file, headers };
    if (file === NOT_FOUND.html) notFound = served;
    else if (file === NOT_FOUND.markdown) notFoundMarkdown = served;
    else paths.set(urlPath, served);
  }
  // An alias (DOCUMENT_ALIASES) answers exactly as the document it names: same file, same headers.
  for (const [alias, target] of Object.entries(DOCUMENT_ALIASES)) {
    const served = paths.get(target);
    if (served !== undefined) paths.set(alias, served);
  }
  const pageTwins = [...twins].filter(([page]) => page !== NOT_FOUND.html);
  const twinsAtPages = new Map<string, ServedFile>();
  for (const [page, twin] of pageTwins) {
    const served = paths.get(twin);
    if (served !== undefined)
      twinsAtPages.set(page, { ...served, headers: { ...served.headers, 'cache-control': NEGOTIATED_MARKDOWN_CACHE } });
  }
  return {
    paths,
    twins: new Map(pageTwins),
    negotiated: twinsAtPages,
    ...(notFound === undefined ? {} : { notFound }),
    ...(notFoundMarkdown === undefined ? {} : { notFoundMarkdown }),
  };
}

/** The URL path a built file is served at. */
function servedAt(file: string): string {
  const elsewhere = BUILT_ELSEWHERE[file];
  if (elsewhere !== undefined) return elsewhere;
  if (file === NOT_FOUND.html || file === NOT_FOUND.markdown) return file;
  if (file === '/index.html') return '/';
  return file.endsWith('.html') ? file.slice(0, -'.html'.length) : file;
}

/**
 * The caching of a Markdown twin sent at its page's own URL because Accept asked for Markdown.
 * That URL has two representations told apart only by Vary: Accept (RFC 9110 section 12.5.5);
 * a shared cache that keys on the URL alone (many CDNs by default, RFC 9111 section 4.1 notwithstanding)
 * would hand the Markdown to every visitor of the page. `private` keeps it out of every shared
 * cache (RFC 9111 section 5.2.2.7) while the agent's own cache may still reuse it for as long as
 * the twin's URL allows; that URL, one representation only, stays publicly cacheable.
 */
export const NEGOTIATED_MARKDOWN_CACHE = 'private, max-age=300';

function cacheControlFor(file: string): string {
  // Astro fingerprints everything under /_astro, so those bytes never change at that URL.
  if (file.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  if (file.endsWith('.html')) return 'public, max-age=0, must-revalidate';
  return 'public, max-age=300, stale-while-revalidate=3600';
}
