import { isServicePath, SERVICE_PATHS } from '../../config/public-urls.ts';
import { HOST_RULE_FILES, VERCEL_IGNORE, type HeaderTable } from '../static/built-file-headers.ts';
import { builtElsewhere } from '../static/redirects-file.ts';
import { displayName } from '../static/header-names.ts';
import type { HeaderRule, PathPattern } from '../static/header-rules.ts';

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
 * every rule (its `source` in path-to-regexp syntax), a document built elsewhere than its URL
 * rewritten to its file (an alias such as /AGENTS.md), and the service's paths rewritten to
 * `target` (functions/hosts/static/proxy-target.ts; "Rewrites" > "Rewrites to external origins"), none without one. Vercel turns
 * `rewrites` into routes after its filesystem check (vercel/vercel, packages/routing-utils,
 * getTransformedRoutes: `{ handle: 'filesystem' }` before the rewrites), so a rewrite never
 * replaces a file: the page templates the service fills in are left out of the upload
 * (vercelIgnore). For the same reason Markdown negotiation cannot be said here: a rewrite on
 * `Accept` (`has`) would come after the page's own file.
 */
export function vercelConfig(table: HeaderTable, rules: readonly HeaderRule[], target: string): VercelConfig {
  // "/.well-known is reserved and cannot be redirected or rewritten" (Vercel, "Rewrites"): a document built elsewhere there is lost.
  const elsewhere = builtElsewhere(table)
    .filter(([urlPath]) => !urlPath.startsWith('/.well-known/'))
    .map(([urlPath, file]) => ({ source: escapeSource(urlPath), destination: file }));
  return {
    $schema: 'https://openapi.vercel.sh/vercel.json',
    cleanUrls: true,
    trailingSlash: false,
    headers: rules.map((rule) => ({
      source: vercelSource(rule.pattern),
      headers: Object.entries(rule.headers).map(([name, value]) => ({ key: displayName(name), value })),
    })),
    rewrites: [
      ...elsewhere,
      ...(target === ''
        ? []
        : [
            ...SERVICE_PATHS.exact.map((path) => ({ source: escapeSource(path), destination: `${target}${path}` })),
            ...SERVICE_PATHS.prefixes.map((prefix) => ({
              source: `${escapeSource(prefix)}:path*`,
              destination: `${target}${prefix}:path*`,
            })),
          ]),
    ],
  };
}

/**
 * The `.vercelignore` of the client dir: what Vercel must not upload. The precompressed variants
 * (Vercel compresses itself, and would serve them at their own paths, which the Node server never
 * does), the other hosts' rule files, and, when the service's paths are proxied (to BACKEND_ORIGIN or API_ORIGIN), the
 * files of those paths (the templates of `/contact` and `/search`), which would shadow the rewrites.
 */
export function vercelIgnore(table: HeaderTable, target: string, variantSuffixes: readonly string[]): string {
  const templates =
    target === '' ? [] : [...table.paths].filter(([urlPath]) => isServicePath(urlPath)).map(([, { file }]) => file);
  const lines = [
    ...variantSuffixes.map((suffix) => `*${suffix}`),
    ...[...HOST_RULE_FILES].filter((file) => file !== '/vercel.json' && file !== VERCEL_IGNORE),
    ...templates,
  ];
  return `# Made by npm run build (functions/hosts/vercel/vercel-config.ts); do not edit.\n${lines.join('\n')}\n`;
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
