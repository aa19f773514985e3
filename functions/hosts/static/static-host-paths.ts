import { isServicePath, SERVICE_PATHS, type PublicOrigins } from '../../config/public-urls.ts';
import { securityHeaders } from '../../http/security-headers.ts';
import type { HeaderTable } from './built-file-headers.ts';
import type { AnsweredElsewhere } from './header-rules.ts';

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

/**
 * The service's paths (SERVICE_PATHS, each prefix with paths under it), which rules stay clear of,
 * and the headers it sends on every answer (functions/hosts/node/request-listener.ts), which may reach them.
 */
export function answeredByService(origins: PublicOrigins): AnsweredElsewhere {
  return {
    paths: [
      ...SERVICE_PATHS.exact,
      ...SERVICE_PATHS.prefixes.flatMap((prefix) => [prefix, `${prefix}x`, `${prefix}x/y`]),
    ],
    headers: securityHeaders(origins),
  };
}
