import { describe, expect, it } from 'vitest';
import { SERVICE_PATHS } from '../../functions/config/public-urls.ts';
import { ERROR_CODES } from '../../functions/http/error-codes.ts';
import { builtFileHeaders } from '../../functions/hosts/static/built-file-headers.ts';
import { securityHeaders } from '../../functions/http/security-headers.ts';
import { nginxSite } from '../../functions/hosts/nginx/site.ts';

const FILES = [
  '/index.html',
  '/index.md',
  '/404.html',
  '/404.md',
  '/llms.txt',
  '/openapi.yaml',
  '/.well-known/api-catalog',
  '/mcp/server-card',
  '/contact.html',
  '/_astro/site.abc123.css',
];

function site(siteUrl = 'https://ada.example', brotli = true): string {
  return nginxSite({
    table: builtFileHeaders(FILES, { siteUrl, apiOrigin: null }),
    root: '/opt/portfolio/dist/client',
    serverName: 'ada.example',
    upstream: { host: '127.0.0.1', port: 4321 },
    brotli,
    commonHeaders: securityHeaders({ siteUrl, apiOrigin: null }),
  });
}

/** The text of each `location` block of the TLS server, by its argument, nested blocks included. */
function locations(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const tls = text.slice(text.indexOf('listen 443'));
  for (const match of tls.matchAll(/^( *)location ([^{]+) \{$/gm)) {
    const start = match.index + match[0].length;
    found.set(match[2]!.trim(), tls.slice(start, tls.indexOf(`\n${match[1]}}`, start)));
  }
  return found;
}

describe('the generated nginx site (tests/system/nginx-static.test.ts runs it against Node)', () => {
  it('passes exactly the service’s paths to the service, adding no header of its own there', () => {
    const blocks = locations(site());
    const proxied = [...blocks].filter(([, body]) => body.includes('proxy_pass'));
    expect(proxied.map(([where]) => where).sort()).toEqual(
      [...SERVICE_PATHS.exact.map((exact) => `= ${exact}`), ...SERVICE_PATHS.prefixes].sort(),
    );
    for (const [where, body] of proxied) {
      expect(body, where).not.toContain('add_header');
      expect(body, where).toContain('proxy_pass http://portfolio;');
    }
    // Only the MCP servers' answers stream.
    expect(blocks.get('= /mcp')).toContain('proxy_buffering off;');
    expect(blocks.get('= /api')).not.toContain('proxy_buffering');
  });

  it('serves the built files with the table’s headers, HSTS over https, from the static location only', () => {
    const text = site();
    const staticBlock = locations(text).get('/')!;
    expect(staticBlock).toMatch(/add_header strict-transport-security "max-age=31536000; includeSubDomains" always;/);
    expect(staticBlock).toContain('add_header cache-control $portfolio_cache_control always;');
    expect(site('http://localhost:4321')).not.toContain('strict-transport-security');
    // A page served by the service (its template) is not a file nginx serves.
    expect(text).not.toMatch(/^\s*"\/contact" "\/contact.html";/m);
    expect(text).toMatch(/^\s*"\/" "\/index.html";/m);
    expect(text).toMatch(/^\s*"1\/" "\/index.md";/m);
  });

  it('types each extension by the project’s table, and each extensionless document in a location of its own', () => {
    const text = site();
    expect(text).toContain('"text/markdown; charset=utf-8" md;');
    expect(text).toContain('"application/yaml; charset=utf-8" yaml;');
    const catalog = locations(text).get('= /.well-known/api-catalog')!;
    expect(catalog).toContain(
      `default_type 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';`,
    );
    expect(catalog).not.toContain('add_header');
    // A server card answers its CORS preflight with the card's CORS headers.
    const card = locations(text).get('= /mcp/server-card')!;
    expect(card).toContain('if ($request_method = OPTIONS) {');
    expect(card).toContain('add_header access-control-allow-methods "GET" always;');
    expect(card).not.toContain('add_header cache-control');
  });

  it('answers its own refusals at internal locations, in the Error shape with codes of the service, and with HSTS over https', () => {
    const text = site();
    const tls = text.slice(text.indexOf('listen 443'));
    const pages = [...tls.matchAll(/^\s*error_page (\d+) = (\S+);$/gm)].map(([, status, uri]) => [status, uri]);
    expect(pages.map(([status]) => status).sort()).toEqual(['400', '413', '494']);
    // None in the port 80 server, which only redirects.
    expect(text.slice(0, text.indexOf('listen 443'))).not.toContain('error_page 4');
    const blocks = locations(text);
    const codes: Record<string, [number, string]> = {
      '400': [400, 'invalid_parameter'],
      '494': [400, 'invalid_header'],
      '413': [413, 'payload_too_large'],
    };
    for (const [status, uri] of pages) {
      const block = blocks.get(`= ${uri}`)!;
      expect(block, uri).toContain('internal;');
      expect(block).toContain('default_type "application/json; charset=utf-8";');
      expect(block).toContain('add_header strict-transport-security "max-age=31536000; includeSubDomains" always;');
      expect(block).toContain('add_header x-request-id $request_id always;');
      const [, answered, json] = /^\s*return (\d+) '(.*)';$/m.exec(block)!;
      const [expectedStatus, code] = codes[status!]!;
      expect([Number(answered), ERROR_CODES[code as keyof typeof ERROR_CODES].status]).toEqual([
        expectedStatus,
        expectedStatus,
      ]);
      expect(JSON.parse(json!)).toMatchObject({ code, requestId: '$request_id' });
    }
    expect(text).toContain('client_max_body_size 64k;');
  });

  it('uses brotli_static only when told the module is there', () => {
    expect(site()).toContain('brotli_static on;');
    expect(site('https://ada.example', false)).not.toContain('brotli_static');
  });
});
