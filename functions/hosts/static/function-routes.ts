import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/env.ts';
import { SERVICE_PATHS } from '../../config/public-urls.ts';
import { proxyTarget } from './proxy-target.ts';
import { COMPRESSED_VARIANTS } from '../static/built-files.ts';

/**
 * Whether the build deploys the service as functions beside the pages: PostgreSQL is set (a
 * function refuses the embedded engine; Redis is optional) and the dynamic paths are not proxied elsewhere
 * (BACKEND_ORIGIN or API_ORIGIN, whose `_redirects` and `vercel.json` lines send them away).
 */
export function deploysFunctions(config: Pick<Config, 'databaseUrl' | 'apiOrigin' | 'backendOrigin'>): boolean {
  return config.databaseUrl !== null && proxyTarget(config) === '';
}

/**
 * The paths the Netlify function answers (Netlify docs, "Functions" > "Configuration" > "Routing":
 * `path` in the function's `config`, URLPattern syntax, `*` for the rest of the path). Without
 * `preferStatic` a function's path wins over a file at it, which the built /contact and /search
 * pages need: the function fills in their slots.
 */
export function netlifyFunctionPaths(): string[] {
  return [...SERVICE_PATHS.exact, ...SERVICE_PATHS.prefixes.map((prefix) => `${prefix}*`)];
}

/** Where vercel.json sends the dynamic paths: the function, which gets the original path back from `VERCEL_PATH_PARAM`. */
export const VERCEL_FUNCTION = '/api/portfolio-service';
/**
 * The query parameter a rewrite hands the original path in. Vercel's "Rewrites" page shows a
 * rewrite to a function turning path segments into query parameters of the destination, and
 * does not say which URL the function then reads; with the path in the query, either works.
 */
const VERCEL_PATH_PARAM = '__service_path';

/** vercel.json's rewrites of the dynamic paths to the function (path-to-regexp `:path*` for the rest). */
export function vercelFunctionRewrites(): { source: string; destination: string }[] {
  return [
    ...SERVICE_PATHS.exact.map((path) => ({
      source: path,
      destination: `${VERCEL_FUNCTION}?${VERCEL_PATH_PARAM}=${path}`,
    })),
    ...SERVICE_PATHS.prefixes.map((prefix) => ({
      source: `${prefix}:path*`,
      destination: `${VERCEL_FUNCTION}?${VERCEL_PATH_PARAM}=${prefix}:path*`,
    })),
  ];
}

/**
 * The request as the visitor sent it: a rewritten request names the function and carries the
 * original path in VERCEL_PATH_PARAM (the visitor's own query is kept beside it); one that
 * already names its own path is left as it is.
 */
export function originalRequest(request: Request): Request {
  const url = new URL(request.url);
  const original = url.searchParams.get(VERCEL_PATH_PARAM);
  if (url.pathname !== VERCEL_FUNCTION || original === null) return request;
  url.searchParams.delete(VERCEL_PATH_PARAM);
  url.pathname = original;
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? request.body : null,
    signal: request.signal,
    // A streamed body needs this in Node.js's fetch (undici).
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/** A file and the precompressed copies the build writes beside it (scripts/precompress.ts). */
const VARIANT_SUFFIXES = ['', ...Object.values(COMPRESSED_VARIANTS)];

/** The built files under `clientDir` that a static host would serve at one of the service's exact paths. */
export function filesAtServicePaths(clientDir: string): string[] {
  return SERVICE_PATHS.exact
    .flatMap((urlPath) => [urlPath, `${urlPath}.html`, `${urlPath}/index.html`])
    .flatMap((file) => VARIANT_SUFFIXES.map((suffix) => path.join(clientDir, `${file}${suffix}`)))
    .filter((file) => existsSync(file) && statSync(file).isFile());
}
