import type { PublicOrigins } from '../../config/public-urls.ts';
import { markdownAlternateLink } from '../../site/markdown-twin.ts';
import type { HeaderTable } from '../static/built-file-headers.ts';
import { headerRules, type HeaderRule } from '../static/header-rules.ts';
import { CLOUDFLARE_MAX_HEADER_RULES } from '../static/headers-file.ts';
import { answeredByService, staticHostPaths } from '../static/static-host-paths.ts';

/**
 * The header rules for Cloudflare Pages. When the table's rules fit in its 100, they are the
 * rules every host gets. A site with more pages than that has a rule per page (each page's Link
 * names its own twin, and its type and caching differ from its twin's in the same folder), so
 * then the pages leave to Cloudflare what it sends anyway (Cloudflare Pages docs, "Serving
 * Pages" > "Headers"): the type of an `.html` file, and `Cache-Control: public, max-age=0,
 * must-revalidate` on a cacheable asset, the table's value for pages; and their
 * Link header no longer names the twin (each page still does, in its head's `<link rel="alternate">`).
 */
export function cloudflareHeaderRules(table: HeaderTable, origins: PublicOrigins): HeaderRule[] {
  const paths = staticHostPaths(table);
  const all = headerRules(paths, answeredByService(origins));
  if (all.length <= CLOUDFLARE_MAX_HEADER_RULES) return all;
  const reduced = [...paths].map(
    ([urlPath, headers]) => [urlPath, cloudflarePageHeaders(table, urlPath, headers, origins.siteUrl)] as const,
  );
  return headerRules(new Map(reduced), answeredByService(origins));
}

/** A page's headers less what the note above says; any other path's as they are. */
export function cloudflarePageHeaders(
  table: HeaderTable,
  urlPath: string,
  headers: Readonly<Record<string, string>>,
  siteUrl: string,
): Readonly<Record<string, string>> {
  const twin = table.twins.get(urlPath);
  if (twin === undefined) return headers;
  const { link, 'content-type': _type, 'cache-control': _cache, ...rest } = headers;
  const others = (link ?? '')
    .split(/, (?=<)/)
    .filter((part) => part !== '' && part !== markdownAlternateLink(`${siteUrl}${twin}`));
  return others.length > 0 ? { ...rest, link: others.join(', ') } : rest;
}
