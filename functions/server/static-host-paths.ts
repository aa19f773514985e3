import { isServicePath, SERVICE_PATHS } from '../app/handle.ts';
import type { HeaderTable } from './built-file-headers.ts';

/**
 * The table's paths a static host answers from the built files, with their headers: all but the
 * service's (`/contact` and `/search` are built as templates the service fills in; a static host
 * proxies those paths, or leaves them to the API origin).
 */
export function staticHostPaths(table: HeaderTable): Map<string, Readonly<Record<string, string>>> {
  return new Map(
    [...table.paths].filter(([urlPath]) => !isServicePath(urlPath)).map(([urlPath, { headers }]) => [urlPath, headers]),
  );
}

/** Paths the service answers (SERVICE_PATHS, each prefix with a path under it), for rules to stay clear of. */
export function servicePathSamples(): string[] {
  return [
    ...SERVICE_PATHS.exact,
    ...SERVICE_PATHS.prefixes.flatMap((prefix) => [prefix, `${prefix}x`, `${prefix}x/y`]),
  ];
}
