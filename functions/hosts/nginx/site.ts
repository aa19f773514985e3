import { isServicePath } from '../../config/public-urls.ts';
import type { HeaderTable } from '../static/built-file-headers.ts';
import { serviceLocations, staticLocation } from './locations.ts';
import { headerDirectives, headersByFile, siteMaps, typesByExtension } from './maps.ts';
import { BODY_MAX_BYTES, refusalLocations, refusalPages } from './refusals.ts';
import { indent, quote } from './syntax.ts';

/** What the generated site needs beyond the build's header table. */
export interface NginxSiteOptions {
  /** The build's header table (../static/built-file-headers.ts), made with the build's SITE_URL. */
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

/**
 * The nginx site for a build: nginx serves every built file itself from `root`, with the headers
 * the Node server sends for it (the one header table, ../static/built-file-headers.ts), and passes only
 * the service's paths (SERVICE_PATHS, functions/config/public-urls.ts) to the Node service.
 *
 * - Clean URLs and Markdown negotiation: maps from the request's path (and Accept) to the file,
 *   tried by try_files, so exactly the table's paths are served and nothing else under the root
 *   (the 404 page, `.br`/`.gz` files and the host rule files answer 404, as from Node).
 * - Headers: in `location /` and inherited by the locations inside it, which add none of their own
 *   (ngx_http_headers_module, "add_header": inherited only by a level that defines none); the
 *   service's locations sit beside it and pass the service's own headers on untouched. A Markdown
 *   twin sent at its page's URL has the headers the table gives it there (private caching), told
 *   from the same file at its own URL by the twin the negotiation chose (./maps.ts).
 * - Types: the project's table for every extension the build has (nginx's mime.types has no .md
 *   or .yaml), and an exact location for each file whose type is not its extension's (the
 *   extensionless .well-known documents, the AI Catalog, the server cards).
 * - Precompressed files: gzip_static and brotli_static send the build's `.gz`/`.br` beside each
 *   file; nothing is compressed on the fly.
 */
export function nginxSite(options: NginxSiteOptions): string {
  const { table, root, serverName, upstream, brotli, commonHeaders } = options;
  const served = [...table.paths].filter(([urlPath]) => !isServicePath(urlPath));
  const twins = [...table.twins].filter(([page]) => !isServicePath(page));
  const byFile = headersByFile(
    table,
    served.map(([, file]) => file),
    twins,
    commonHeaders,
  );
  const types = typesByExtension(byFile.keys());
  const { maps: headerMaps, addHeaders } = headerDirectives(byFile);
  const maps = siteMaps({ table, served, twins, headerMaps });
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
      `# The largest body the service reads (a batch or an MCP message: ${BODY_MAX_BYTES / 1024} KiB); smaller limits, such`,
      "# as a contact message's 16 KiB, are the service's own, answered in its Error shape.",
      `client_max_body_size ${BODY_MAX_BYTES / 1024}k;`,
      "# nginx's own refusals (a malformed request line, headers or a body too large) in the service's",
      '# Error shape, not as its HTML pages (functions/hosts/nginx/refusals.ts).',
      ...refusalPages(),
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
      ...staticLocation({ table, served, types, addHeaders, brotli }),
      '',
      "# The service's paths (functions/config/public-urls.ts), passed on with the service's own headers.",
      ...serviceLocations(),
      '',
      "# nginx's refusals, as the service answers them: {code, message, hint, requestId} with nginx's request id.",
      ...refusalLocations(commonHeaders),
    ]),
    '}',
    '',
  ].join('\n');
}
