import path from 'node:path';
import { SERVICE_PATHS, isServicePath } from '../../config/public-urls.ts';
import { MCP_SERVERS } from '../../mcp/server-identity.ts';
import type { HeaderTable, ServedFile } from '../static/built-file-headers.ts';
import { mediaTypeFor } from '../static/media-types.ts';
import { notFoundHeaders } from '../static/not-found-headers.ts';
import { preflightHeaders } from '../static/built-files.ts';

/** What the generated site needs beyond the build's header table. */
export interface NginxSiteOptions {
  /** The build's header table (./built-file-headers.ts), made with the build's SITE_URL. */
  table: HeaderTable;
  /** The static output nginx serves (an absolute path to dist/client). */
  root: string;
  /** The site's host name: `server_name`, the HTTPS redirect's target and certbot's certificate paths. */
  serverName: string;
  /** The service instance behind the dynamic paths (`127.0.0.1:4321`); the site names a second one on the next port, commented out. */
  upstream: { host: string; port: number };
  /** Whether this nginx has brotli_static (Debian: libnginx-mod-http-brotli-static), for the `.br` files. */
  brotli: boolean;
  /** The headers every answer of the service carries (functions/http/security-headers.ts), which its 404 answers carry. */
  commonHeaders: Readonly<Record<string, string>>;
}

/** The site's variables are named with this prefix, so that they meet no other site's in the same `http` block. */
const PREFIX = 'portfolio';

/**
 * nginx's string syntax: quoted, and never a `$` (it would read a variable; the values are
 * constants) or a backslash (an escape). A value holding double quotes is single-quoted.
 */
function quote(value: string): string {
  if (/[$\\\n]/.test(value)) throw new Error(`No nginx string for ${JSON.stringify(value)}`);
  if (!value.includes('"')) return `"${value}"`;
  if (value.includes("'")) throw new Error(`No nginx string for ${JSON.stringify(value)}`);
  return `'${value}'`;
}

/**
 * A map's string entries. nginx matches them ignoring case (ngx_http_map_module, "map": "Strings
 * are matched ignoring the case") and refuses two that differ only in case, so such keys share one
 * entry: that of the key already in lower case, which must answer as the others would
 * (`sameAnswer`), or else comes first. /AGENTS.md is so served by the /agents.md entry (the same
 * file, the same headers); a path in any other case is refused before the maps ($portfolio_served).
 */
function mapEntries(pairs: Iterable<readonly [string, string]>, sameAnswer = true): string[] {
  const byKey = new Map<string, readonly [string, string]>();
  const lowerFirst = [...pairs].sort(([a], [b]) => Number(a !== a.toLowerCase()) - Number(b !== b.toLowerCase()));
  for (const [key, value] of lowerFirst) {
    const known = byKey.get(key.toLowerCase());
    if (known === undefined) byKey.set(key.toLowerCase(), [key, value]);
    else if (sameAnswer && known[1] !== value)
      throw new Error(`nginx cannot tell ${known[0]} from ${key}, which answer differently`);
  }
  return [...byKey.values()].map(([key, value]) => `${quote(key)} ${quote(value)};`);
}

/**
 * Entries that give each path itself, whatever its case: a string where no other path differs
 * from it only in case, else a case-sensitive regular expression (`~`) for each of those paths.
 */
function exactCaseEntries(paths: readonly string[]): string[] {
  const byLowerCase = Map.groupBy(paths, (urlPath) => urlPath.toLowerCase());
  return [...byLowerCase.values()].flatMap((group) =>
    group.length === 1
      ? [`${quote(group[0]!)} ${quote(group[0]!)};`]
      : group.map((urlPath) => `"~^${regexLiteral(urlPath)}$" ${quote(urlPath)};`),
  );
}

/** A path as a regular expression matching only itself, for a quoted map key (no `"` or `\\` in a path). */
function regexLiteral(urlPath: string): string {
  if (/["\\\s]/.test(urlPath)) throw new Error(`No nginx map key for ${JSON.stringify(urlPath)}`);
  return urlPath.replace(/[.*+?^${}()|[\]]/g, '\\$&');
}

function indent(lines: readonly string[], depth = 1): string[] {
  return lines.map((line) => (line === '' ? '' : `${'    '.repeat(depth)}${line}`));
}

/** A header's name as part of a variable's: `access-control-allow-origin` -> `access_control_allow_origin`. */
function variableFor(header: string): string {
  return `$${PREFIX}_${header.replace(/-/g, '_')}`;
}

/**
 * Accept preferring Markdown to HTML, as functions/http/prefers-markdown.ts decides it, in
 * regular expressions (a map cannot compare q-values): text/markdown named with a q above 0 and
 * text/html not named, or text/markdown without a q (1) and text/html with one below 1. Only
 * text/markdown at a q below 1 beside text/html at a lower one is left out: no agent sends it.
 */
const PREFERS_MARKDOWN = [
  '~*^(?!.*text/html)(?=.*text/markdown(?!\\s*;\\s*q=0(\\.0*)?\\s*(,|$)))',
  '~*^(?=.*text/markdown\\s*(,|$))(?=.*text/html\\s*;\\s*q=0)',
];

/** Each served file (by its path under the root) and the headers it answers with; the 404 pages' as 404 answers. */
function headersByFile(
  table: HeaderTable,
  served: readonly ServedFile[],
  common: Readonly<Record<string, string>>,
): Map<string, Readonly<Record<string, string>>> {
  const byFile = new Map<string, Readonly<Record<string, string>>>();
  const hasTwin = table.notFoundMarkdown !== undefined;
  for (const page of [table.notFound, table.notFoundMarkdown])
    if (page !== undefined) byFile.set(page.file, notFoundHeaders(common, page.headers, hasTwin));
  for (const { file, headers } of served) {
    const known = byFile.get(file);
    // nginx picks a file's headers by the file, so one file cannot answer two paths differently.
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(headers))
      throw new Error(`${file} is served at two paths with different headers`);
    byFile.set(file, headers);
  }
  return byFile;
}

/** The media type nginx gives a file by its extension: the project's own table, for every extension the build has. */
function typesByExtension(files: Iterable<string>): Map<string, string> {
  const types = new Map<string, string>();
  for (const file of files) {
    const extension = path.posix.extname(file).slice(1).toLowerCase();
    if (extension !== '') types.set(extension, mediaTypeFor(`/file.${extension}`));
  }
  return types;
}

/**
 * `add_header` lines for every header of the table but Content-Type (which `types` and
 * `default_type` give): a header with one value on every file is written as it is; the others
 * come from a map on the file served ($uri once try_files has found it), empty (so not sent,
 * ngx_http_headers_module, "add_header") where a file has none.
 */
function headerDirectives(byFile: ReadonlyMap<string, Readonly<Record<string, string>>>) {
  const names = new Set([...byFile.values()].flatMap((headers) => Object.keys(headers)));
  names.delete('content-type');
  const maps: string[] = [];
  const addHeaders: string[] = [];
  for (const name of [...names].sort()) {
    const values = [...byFile.values()].map((headers) => headers[name]);
    const first = values[0];
    if (first !== undefined && values.every((value) => value === first)) {
      addHeaders.push(`add_header ${name} ${quote(first)} always;`);
      continue;
    }
    const variable = variableFor(name);
    const entries = mapEntries(
      [...byFile].flatMap(([file, headers]) => (headers[name] === undefined ? [] : [[file, headers[name]] as const])),
    );
    // volatile: read again after an internal redirect (the 404 page), not the first value kept.
    maps.push(`map $uri ${variable} {`, ...indent(['volatile;', 'default "";', ...entries]), '}', '');
    addHeaders.push(`add_header ${name} ${variable} always;`);
  }
  return { maps, addHeaders };
}

/**
 * The nginx site for a build: nginx serves every built file itself from `root`, with the headers
 * the Node server sends for it (the one header table, ./built-file-headers.ts), and passes only
 * the service's paths (SERVICE_PATHS, functions/config/public-urls.ts) to the Node service.
 *
 * - Clean URLs and Markdown negotiation: maps from the request's path (and Accept) to the file,
 *   tried by try_files, so exactly the table's paths are served and nothing else under the root
 *   (the 404 page, `.br`/`.gz` files and the host rule files answer 404, as from Node).
 * - Headers: in `location /` and inherited by the locations inside it, which add none of their own
 *   (ngx_http_headers_module, "add_header": inherited only by a level that defines none); the
 *   service's locations sit beside it and pass the service's own headers on untouched.
 * - Types: the project's table for every extension the build has (nginx's mime.types has no .md
 *   or .yaml), and an exact location for each file whose type is not its extension's (the
 *   extensionless .well-known documents, the AI Catalog, the server cards).
 * - Precompressed files: gzip_static and brotli_static send the build's `.gz`/`.br` beside each
 *   file; nothing is compressed on the fly.
 */
export function nginxSite(options: NginxSiteOptions): string {
  const { table, root, serverName, upstream, brotli, commonHeaders } = options;
  const served = [...table.paths].filter(([urlPath]) => !isServicePath(urlPath));
  const byFile = headersByFile(
    table,
    served.map(([, file]) => file),
    commonHeaders,
  );
  const types = typesByExtension(byFile.keys());
  const { maps, addHeaders } = headerDirectives(byFile);
  const twins = [...table.twins].filter(([page]) => !isServicePath(page));
  const notFound = table.notFound?.file;
  const notFoundMarkdown = table.notFoundMarkdown?.file;

  // A file whose type is not its extension's, or that answers CORS preflights: an exact location of its own.
  const ownLocations = served.flatMap(([urlPath, { file, headers }]) => {
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

  const notFoundLocations = [notFound, notFoundMarkdown].flatMap((file) =>
    file === undefined
      ? []
      : [
          `location = ${file} {`,
          // Reached only as the error page: at its own URL it is missing, as from Node.
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

  const proxied = (location: string, streaming: boolean) => [
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
  const mcpPaths = new Set<string>(Object.values(MCP_SERVERS).map((server) => server.path));
  const serviceLocations = [
    ...SERVICE_PATHS.exact.flatMap((exact) => proxied(`= ${exact}`, mcpPaths.has(exact))),
    ...SERVICE_PATHS.prefixes.flatMap((prefix) => proxied(prefix, false)),
  ];

  const staticLocation = [
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
      ...(notFound === undefined ? [] : [`error_page 404 $${PREFIX}_not_found;`]),
      '',
      ...notFoundLocations,
      ...ownLocations,
    ]),
    '}',
  ];

  const servedMap = exactCaseEntries(served.map(([urlPath]) => urlPath));
  const fileMap = mapEntries(served.map(([urlPath, { file }]) => [urlPath, file] as const));
  // Every path the Node server redirects to from the same path with a trailing slash (its own paths too).
  const slashMap = mapEntries(
    [...table.paths.keys()].filter((urlPath) => urlPath !== '/').map((urlPath) => [`1${urlPath}/`, urlPath] as const),
    false,
  );
  const twinMap = mapEntries(twins.map(([page, twin]) => [`1${page}`, twin] as const));
  const notFoundMap =
    notFoundMarkdown === undefined
      ? [`default ${quote(notFound ?? '')};`]
      : [
          `default ${quote(notFound ?? '')};`,
          `"~^1" ${quote(notFoundMarkdown)};`,
          `"~\\.md$" ${quote(notFoundMarkdown)};`,
        ];

  return [
    `# nginx site for ${serverName}, made by \`npm run build\` (scripts/nginx-site.ts) from the build it serves: do not`,
    '# edit it, build again. nginx serves the built files itself, with the headers the Node service sends',
    "# for each (functions/hosts/static/built-file-headers.ts), and passes only the service's own paths to it",
    '# (functions/config/public-urls.ts). Install it as /etc/nginx/sites-available/portfolio and link it into',
    '# sites-enabled, then `nginx -t && systemctl reload nginx`. Written for nginx 1.22 (Debian 12)',
    brotli
      ? '# with libnginx-mod-http-brotli-static (its load_module line is in /etc/nginx/modules-enabled/);'
      : '# without the brotli module (--without-brotli): only the .gz files are sent;',
    '# tests/system/nginx-static.test.ts and nginx-front.test.ts run it. nginx reads the files from',
    `# ${root}, so its user (www-data) must be able to read them.`,
    '',
    'upstream portfolio {',
    ...indent([
      `server ${upstream.host}:${upstream.port} max_fails=0;`,
      '# A second instance on the shared engines (PostgreSQL and Redis), for restarts without a gap',
      '# (docs/operations.md, "Restarts without a gap"): a request that cannot reach one instance goes to the other',
      '# (proxy_next_upstream below), so restarting them one at a time is never seen by visitors.',
      '# max_fails=0: an instance is tried again as soon as it listens, rather than set aside for',
      '# fail_timeout (10 s), so the other may be restarted as soon as the first answers.',
      `#server ${upstream.host}:${upstream.port + 1} max_fails=0;`,
      '# Reused connections to the service. The service closes idle ones after 5 s, so nginx drops',
      '# them first: reusing one the service is closing at that moment would fail the request (502).',
      'keepalive 16;',
      'keepalive_timeout 4s;',
    ]),
    '}',
    '',
    '# Longer keys than the default buckets hold (the .well-known paths).',
    'map_hash_bucket_size 128;',
    '',
    '# Whether Accept prefers Markdown (functions/http/prefers-markdown.ts).',
    `map $http_accept $${PREFIX}_markdown {`,
    // Written as they are: a map's key is not read for variables, and these hold `$` and `\`.
    ...indent(['default "";', ...PREFERS_MARKDOWN.map((pattern) => `"${pattern}" 1;`)]),
    '}',
    '',
    '# The file of each served path: pages at their clean URL, a document built elsewhere at its URL.',
    `map $uri $${PREFIX}_file {`,
    ...indent(['default "";', ...fileMap]),
    '}',
    '',
    '# The served path a request names, in its own case (the strings of a map match ignoring case).',
    `map $uri $${PREFIX}_served {`,
    ...indent(['default "";', ...servedMap]),
    '}',
    '',
    '# GET and HEAD, the methods a trailing slash is redirected for.',
    `map $request_method $${PREFIX}_redirectable {`,
    ...indent(['default "";', 'GET 1;', 'HEAD 1;']),
    '}',
    '',
    '# A served path asked for with a trailing slash, and the path it is redirected to.',
    `map $${PREFIX}_redirectable$uri $${PREFIX}_without_slash {`,
    ...indent(['default "";', ...slashMap]),
    '}',
    '',
    "# A page's Markdown twin, when Accept prefers Markdown.",
    `map $${PREFIX}_markdown$uri $${PREFIX}_twin {`,
    ...indent(['default "";', ...twinMap]),
    '}',
    '',
    '# The 404 page, or its Markdown twin for a request that asked for Markdown or a `.md` URL.',
    `map $${PREFIX}_markdown$uri $${PREFIX}_not_found {`,
    ...indent(notFoundMap),
    '}',
    '',
    ...maps,
    'server {',
    ...indent([
      'listen 80;',
      'listen [::]:80;',
      `server_name ${serverName};`,
      '',
      '# HTTP-01 challenges of an ACME client such as certbot (`certbot certonly --webroot -w /var/www/letsencrypt`).',
      'location /.well-known/acme-challenge/ {',
      '    root /var/www/letsencrypt;',
      '}',
      '',
      '# To the configured name, never to the Host the client sent ($host): a request for',
      '# evil.example that reaches this server must not be sent on to https://evil.example/.',
      '# With several names on server_name, the first is the one redirected to.',
      'location / {',
      '    return 301 https://$server_name$request_uri;',
      '}',
    ]),
    '}',
    '',
    'server {',
    ...indent([
      '# nginx 1.25.1 and later write `listen 443 ssl;` plus `http2 on;`.',
      'listen 443 ssl http2;',
      'listen [::]:443 ssl http2;',
      `server_name ${serverName};`,
      '',
      "# The operator's certificate: the full chain, then its private key (certbot's paths shown).",
      `ssl_certificate /etc/letsencrypt/live/${serverName}/fullchain.pem;`,
      `ssl_certificate_key /etc/letsencrypt/live/${serverName}/privkey.pem;`,
      'ssl_protocols TLSv1.2 TLSv1.3;',
      'ssl_session_cache shared:portfolio_tls:10m;',
      'ssl_session_timeout 1d;',
      'ssl_session_tickets off;',
      'server_tokens off;',
      '',
      '# The static output of the build (dist/client), and the type of each extension it has.',
      `root ${root};`,
      'types {',
      ...indent([...types].map(([extension, type]) => `${quote(type)} ${extension};`)),
      '}',
      'default_type application/octet-stream;',
      '',
      '# The largest body the service reads (a batch or an MCP message: 64 KiB); smaller limits, such',
      "# as a contact message's 16 KiB, are the service's own, answered in its Error shape.",
      'client_max_body_size 64k;',
      '# HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS (10 s, 30 s): nginx reads the request first, so the',
      '# service receives each one whole and at once.',
      'client_header_timeout 10s;',
      'client_body_timeout 30s;',
      '',
      'proxy_http_version 1.1;',
      'proxy_set_header Connection "";',
      'proxy_set_header Host $host;',
      '# The service trusts exactly one proxy (TRUST_PROXY=1): the address nginx appends here.',
      'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      'proxy_set_header X-Forwarded-Proto $scheme;',
      '# A request nginx could not pass to one instance (refused while it restarts, or the connection',
      '# broke before an answer) is tried on the next one, if any. A POST that reached an instance is',
      "# never sent again (no non_idempotent): a retry with the same Idempotency-Key is the client's.",
      'proxy_next_upstream error timeout;',
      'proxy_next_upstream_tries 2;',
      'proxy_connect_timeout 5s;',
      'proxy_send_timeout 30s;',
      'proxy_read_timeout 60s;',
      '',
      '# The built files, served here.',
      ...staticLocation,
      '',
      "# The service's paths (functions/config/public-urls.ts), passed on with the service's own headers.",
      ...serviceLocations,
    ]),
    '}',
    '',
  ].join('\n');
}
