import { SERVICE_PATHS } from '../app/handle.ts';
import { displayName } from './header-names.ts';
import type { HeaderRule, PathPattern } from './header-rules.ts';

/** What the build writes as `vercel.json` (Vercel, "Project configuration" > vercel.json). */
export interface VercelConfig {
  $schema: string;
  cleanUrls: true;
  trailingSlash: false;
  headers: { source: string; headers: { key: string; value: string }[] }[];
  rewrites: { source: string; destination: string }[];
}

/**
 * The Vercel configuration of the built files: `cleanUrls` serves `x.html` at `/x` (and redirects
 * `/x.html` there with 308), `trailingSlash: false` redirects `/x/` to `/x` (308), the headers of
 * every rule (its `source` in path-to-regexp syntax), and the service's paths rewritten to
 * `apiOrigin` ("Rewrites" > "Rewrites to external origins"), none without one.
 */
export function vercelConfig(rules: readonly HeaderRule[], apiOrigin: string): VercelConfig {
  return {
    $schema: 'https://openapi.vercel.sh/vercel.json',
    cleanUrls: true,
    trailingSlash: false,
    headers: rules.map((rule) => ({
      source: vercelSource(rule.pattern),
      headers: Object.entries(rule.headers).map(([name, value]) => ({ key: displayName(name), value })),
    })),
    rewrites:
      apiOrigin === ''
        ? []
        : [
            ...SERVICE_PATHS.exact.map((path) => ({ source: escapeSource(path), destination: `${apiOrigin}${path}` })),
            ...SERVICE_PATHS.prefixes.map((prefix) => ({
              source: `${escapeSource(prefix)}:path*`,
              destination: `${apiOrigin}${prefix}:path*`,
            })),
          ],
  };
}

/** A pattern in path-to-regexp syntax: a parameter with a custom regex, `(.*)`, stands for the wildcard. */
function vercelSource(pattern: PathPattern): string {
  if ('exact' in pattern) return escapeSource(pattern.exact);
  return `${escapeSource(pattern.dir)}(.*)${escapeSource(pattern.suffix)}`;
}

/** path-to-regexp gives `:`, `(`, `)`, `*`, `+`, `?`, `{`, `}` and `\` a meaning; a backslash makes them plain. */
function escapeSource(text: string): string {
  return text.replace(/[:()*+?{}\\]/g, '\\$&');
}
