import { SERVICE_PATHS } from '../../config/public-urls.ts';
import type { HeaderTable } from './built-file-headers.ts';

/**
 * The `_redirects` file. The service's paths are proxied to `target` (functions/hosts/static/proxy-target.ts; Netlify, "Rewrites and
 * proxies" > "Proxy to another service": a rule with status 200 to an absolute URL; the `!`
 * makes it apply where a file exists too, "Shadowing", which `/contact` and `/search` need: their
 * built page is the template the service fills in). Without a target there is nothing to
 * proxy to. Cloudflare Pages reads the same file but proxies only to its own paths ("Redirects" >
 * "Proxying": "You cannot proxy external domains") and knows no `200!`, so it ignores these lines
 * ("Per line": a line in another format is ignored). A document the build wrote elsewhere than
 * its URL (functions/site/discovery-documents.ts BUILT_ELSEWHERE) is rewritten to its file, which
 * both hosts do for a relative URL with 200. Trailing slashes are the hosts' own: Netlify matches
 * a rule with or without one, so a rule `/x/ /x 301` would loop there, and Cloudflare Pages
 * already redirects `/x.html` and `/x/` ("Serving Pages" > "Route matching").
 */
export function redirectsFile(table: HeaderTable, target: string): string {
  const head = [
    '# Made by npm run build from the header table and the service paths (functions/config/public-urls.ts); do not edit.',
    '# Syntax: Netlify docs, "Redirects and rewrites" > "Syntax for the _redirects file", "Rewrites and proxies";',
    '# Cloudflare Pages docs, "Redirects" (it proxies to its own paths only, so it skips the 200! lines).',
    '',
  ].join('\n');
  const elsewhere = builtElsewhere(table).map(([urlPath, file]) => `${urlPath}  ${file}  200`);
  const proxies =
    target === ''
      ? ['# No BACKEND_ORIGIN or API_ORIGIN at build: the dynamic paths have nowhere to go from a static host.']
      : [
          ...SERVICE_PATHS.exact.map((path) => `${path}  ${target}${path}  200!`),
          ...SERVICE_PATHS.prefixes.map((prefix) => `${prefix}*  ${target}${prefix}:splat  200!`),
        ];
  return `${head}${[...elsewhere, ...proxies].join('\n')}\n`;
}

/** Served paths whose file is neither at the path nor at the path plus `.html` (nor `/index.html` for `/`). */
export function builtElsewhere(table: HeaderTable): [string, string][] {
  return [...table.paths]
    .filter(
      ([urlPath, { file }]) =>
        file !== urlPath && file !== `${urlPath}.html` && !(urlPath === '/' && file === '/index.html'),
    )
    .map(([urlPath, { file }]) => [urlPath, file]);
}
