import path from 'node:path';
import { SERVICE_PATHS } from '../../config/public-urls.ts';
import { MCP_SERVERS } from '../../mcp/server-identity.ts';
import type { HeaderTable, ServedFile } from '../static/built-file-headers.ts';
import { preflightHeaders } from '../static/built-files.ts';
import { indent, PREFIX, quote } from './syntax.ts';

/**
 * An exact location for each file whose type is not its extension's (the extensionless
 * .well-known documents, the AI Catalog, the server cards), or that answers CORS preflights.
 */
function ownLocations(
  served: readonly (readonly [string, ServedFile])[],
  types: ReadonlyMap<string, string>,
): string[] {
  return served.flatMap(([urlPath, { file, headers }]) => {
    const type = headers['content-type'];
    const byExtension = types.get(path.posix.extname(file).slice(1).toLowerCase()) ?? 'application/octet-stream';
    const preflight = headers['access-control-allow-methods'] !== undefined;
    if (type === byExtension && !preflight) return [];
    const body = [
      ...(type === undefined || type === byExtension ? [] : ['types { }', `default_type ${quote(type)};`]),
      ...(preflight
        ? [
            // The preflight's answer (Fetch standard, "CORS-preflight fetch"): a 204 with the CORS
            // and common headers, not the representation's; add_header here replaces the ones above.
            'if ($request_method = OPTIONS) {',
            ...indent([
              ...Object.entries(preflightHeaders(headers)).map(
                ([name, value]) => `add_header ${name} ${quote(value)} always;`,
              ),
              'return 204;',
            ]),
            '}',
          ]
        : []),
      `try_files ${quote(file)} =404;`,
    ];
    return [`location = ${urlPath} {`, ...indent(body), '}'];
  });
}

/** The 404 page and its twin, reached only as the error page: at their own URL they are missing, as from Node. */
function notFoundLocations(table: HeaderTable, brotli: boolean): string[] {
  return [table.notFound?.file, table.notFoundMarkdown?.file].flatMap((file) =>
    file === undefined
      ? []
      : [
          `location = ${file} {`,
          ...indent([
            'internal;',
            'try_files $uri =404;',
            // Sent as it is, so without Vary: Accept-Encoding, as from Node.
            'gzip_static off;',
            ...(brotli ? ['brotli_static off;'] : []),
          ]),
          '}',
        ],
  );
}

/** What `location /` needs beyond the table: the files, their types, the headers' directives, and the brotli module. */
export interface StaticLocationSources {
  table: HeaderTable;
  served: readonly (readonly [string, ServedFile])[];
  types: ReadonlyMap<string, string>;
  addHeaders: readonly string[];
  brotli: boolean;
}

/**
 * `location /`: every built file, with its headers (inherited by the locations inside it, which
 * add none of their own: ngx_http_headers_module, "add_header"), the build's precompressed
 * variants, the trailing-slash redirect, the exact-case check and the 404 page.
 */
export function staticLocation({ table, served, types, addHeaders, brotli }: StaticLocationSources): string[] {
  return [
    'location / {',
    ...indent([
      ...addHeaders,
      '',
      // The build compressed every file worth it (scripts/precompress.ts): what has no .gz/.br is sent as it is.
      'gzip off;',
      'gzip_static on;',
      ...(brotli ? ['brotli_static on;'] : []),
      'gzip_vary on;',
      // A served path with a trailing slash: to the path without it (relative, query kept), as from Node.
      'absolute_redirect off;',
      `if ($${PREFIX}_without_slash) {`,
      ...indent([`return 301 $${PREFIX}_without_slash$is_args$args;`]),
      '}',
      // The maps match paths ignoring case; Node does not, so neither does this (`!=` compares exactly).
      `if ($${PREFIX}_served != $uri) {`,
      ...indent(['return 404;']),
      '}',
      `try_files $${PREFIX}_twin $${PREFIX}_file =404;`,
      ...(table.notFound === undefined ? [] : [`error_page 404 $${PREFIX}_not_found;`]),
      '',
      ...notFoundLocations(table, brotli),
      ...ownLocations(served, types),
    ]),
    '}',
  ];
}

/** A location passed to the service; an MCP endpoint's answers stream (text/event-stream), never held in nginx's buffer. */
function proxied(location: string, streaming: boolean): string[] {
  return [
    `location ${location} {`,
    ...indent([
      'proxy_pass http://portfolio;',
      ...(streaming
        ? [
            // An answer sent as an event stream (text/event-stream) is passed on as it arrives,
            // never held back in nginx's buffer.
            'proxy_buffering off;',
          ]
        : []),
    ]),
    '}',
  ];
}

/** The service's paths (SERVICE_PATHS, functions/config/public-urls.ts), each passed to the upstream. */
export function serviceLocations(): string[] {
  const mcpPaths = new Set<string>(Object.values(MCP_SERVERS).map((server) => server.path));
  return [
    ...SERVICE_PATHS.exact.flatMap((exact) => proxied(`= ${exact}`, mcpPaths.has(exact))),
    ...SERVICE_PATHS.prefixes.flatMap((prefix) => proxied(prefix, false)),
  ];
}
