import { SERVICE_PATHS } from '../app/handle.ts';

/**
 * The `_redirects` file: the service's paths proxied to `apiOrigin` (Netlify, "Rewrites and
 * proxies" > "Proxy to another service": a rule with status 200 to an absolute URL; the `!`
 * makes it apply where a file exists too, "Shadowing", which `/contact` and `/search` need: their
 * built page is the template the service fills in). Without an API origin there is nothing to
 * proxy to, and the file holds only comments. Cloudflare Pages reads the same file but proxies
 * only to its own paths ("Redirects" > "Proxying": "You cannot proxy external domains") and knows
 * no `200!`, so it ignores these lines ("Per line": a line in another format is ignored).
 * Trailing slashes are the hosts' own: Netlify matches a rule with or without one, so a rule
 * `/x/ /x 301` would loop there, and Cloudflare Pages already redirects `/x.html` and `/x/`.
 */
export function redirectsFile(apiOrigin: string): string {
  const head = '# Made by npm run build from the service paths (functions/app/handle.ts); do not edit.\n';
  if (apiOrigin === '')
    return `${head}# No API_ORIGIN at build: the dynamic paths have nowhere to go from a static host.\n`;
  const lines = [
    ...SERVICE_PATHS.exact.map((path) => `${path}  ${apiOrigin}${path}  200!`),
    ...SERVICE_PATHS.prefixes.map((prefix) => `${prefix}*  ${apiOrigin}${prefix}:splat  200!`),
  ];
  return `${head}${lines.join('\n')}\n`;
}
