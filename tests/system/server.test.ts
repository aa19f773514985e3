import path from 'node:path';
import Database from 'better-sqlite3';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorSchema } from '../support/schemas.ts';
import { freshDataDir, startExpectingFailure, startServer, type RunningServer } from '../support/server.ts';
import { freshDatabaseUrl, HAS_POSTGRES } from '../support/postgres.ts';
import { startService } from '../support/service.ts';
import { waitFor } from '../support/webhook.ts';
import { OUR_REQUEST_ID } from '../../functions/http/request-id.ts';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** A raw request, so that the test sees exactly the bytes and headers the server sent. */
function raw(path: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const url = new URL(server.baseUrl);
      const req = httpRequest(
        { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    },
  );
}

describe('pages and documents from memory', () => {
  it('serves the variants the build wrote only in place of their file, never at their own path', async () => {
    for (const variant of ['/llms.txt.br', '/llms.txt.gz', '/index.html.br'])
      expect((await raw(variant)).status, variant).toBe(404);
  });

  it('serves the home page, every project page and browse pages at clean URLs', async () => {
    const home = await fetch(server.baseUrl);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await home.text();
    const links = [...html.matchAll(/href="(\/(?:projects|domains|stack)\/[^"]+)"/g)].map((m) => m[1]!);
    const projectLinks = new Set(links.filter((link) => link.startsWith('/projects/')));
    expect(projectLinks.size).toBe(19);
    expect(links.some((link) => link.startsWith('/domains/'))).toBe(true);
    expect(links.some((link) => link.startsWith('/stack/'))).toBe(true);
    for (const link of new Set(links)) {
      const page = await fetch(`${server.baseUrl}${link}`);
      expect(page.status, link).toBe(200);
      const text = await page.text();
      // No JavaScript: a JSON-LD block is data that the browser never runs, so it is left out.
      const scripts = text.replace(/<script type="application\/ld\+json">[^<]*<\/script>/g, '');
      expect(scripts, link).not.toMatch(/<script/i);
      expect(text, link).not.toMatch(/ style="/);
    }
  });

  it('renders a project page with its body, stack and links', async () => {
    const api = (await (await fetch(`${server.baseUrl}/api/v1/projects?limit=100`)).json()) as {
      data: { slug: string; title: string; stack: string[]; repository: string | null }[];
    };
    const project = api.data.find((p) => p.repository !== null)!;
    const html = await (await fetch(`${server.baseUrl}/projects/${project.slug}`)).text();
    expect(html).toContain(`<h1>${project.title}</h1>`);
    for (const item of project.stack) expect(html).toContain(`>${item}</a>`);
    expect(html).toContain(`href="${project.repository}"`);
    expect(html).toMatch(/<div class="prose">\s*<p>/);
  });

  it('sends brotli or gzip by Accept-Encoding, with the same ETag for every encoding', async () => {
    const plain = await raw('/');
    const br = await raw('/', { headers: { 'accept-encoding': 'gzip, br' } });
    const gzip = await raw('/', { headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    // Pages with a Markdown twin also vary by Accept.
    expect(br.headers.vary).toBe('Accept-Encoding, Accept');
    expect(br.headers.etag).toBe(plain.headers.etag);
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
  });

  it('answers If-None-Match with 304 and HEAD without a body', async () => {
    const first = await raw('/portfolio.json');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await raw('/portfolio.json', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await raw('/portfolio.json', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
  });

  it('caches fingerprinted assets forever and pages briefly', async () => {
    const html = await (await fetch(server.baseUrl)).text();
    const css = /href="(\/_astro\/[^"]+\.css)"/.exec(html)?.[1];
    expect(css).toBeDefined();
    const asset = await fetch(`${server.baseUrl}${css}`);
    expect(asset.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(server.baseUrl)).headers.get('cache-control')).toContain('must-revalidate');
  });

  it('redirects a trailing slash to the clean URL and gives unknown pages the 404 page', async () => {
    const redirect = await fetch(`${server.baseUrl}/projects/${'x'}/`, { redirect: 'manual' });
    expect(redirect.status).toBe(404);
    const home = (await (await fetch(`${server.baseUrl}/api/v1/projects?limit=1`)).json()) as {
      data: { slug: string }[];
    };
    const slug = home.data[0]!.slug;
    const moved = await fetch(`${server.baseUrl}/projects/${slug}/`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/projects/${slug}`);
    for (const path of ['/no-such-page', '/404', '/index.html', '/projects/../package.json']) {
      const missing = await fetch(`${server.baseUrl}${path}`);
      expect(missing.status, path).toBe(404);
      expect(await missing.text()).toContain('Page not found');
    }
  });

  it('answers a write to a page with 405 and Allow', async () => {
    const response = await fetch(server.baseUrl, { method: 'POST', body: 'x' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('cross-cutting rules', () => {
  it('sends HSTS when SITE_URL is https', async () => {
    const https = await startService({ SITE_URL: 'https://ada.example' });
    try {
      for (const path of ['/', '/api/v1/projects']) {
        expect((await fetch(`${https.baseUrl}${path}`)).headers.get('strict-transport-security')).toContain('max-age=');
      }
    } finally {
      await https.stop();
    }
  });

  it('keeps a well-formed X-Request-Id and replaces a malformed one', async () => {
    const kept = await fetch(`${server.baseUrl}/api/v1/projects`, { headers: { 'x-request-id': 'trace-abc-12345' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc-12345');
    const replaced = await fetch(`${server.baseUrl}/api/nope`, { headers: { 'x-request-id': '<bad id>' } });
    const id = replaced.headers.get('x-request-id');
    expect(id).toMatch(OUR_REQUEST_ID);
    expect(errorSchema.parse(await replaced.json()).requestId).toBe(id);
    expect((await fetch(server.baseUrl)).headers.get('x-request-id')).toMatch(OUR_REQUEST_ID);
  });

  it('answers unknown API paths with a JSON 404 and wrong methods with 405 and Allow', async () => {
    const missing = await fetch(`${server.baseUrl}/api/v2/projects`);
    expect(missing.status).toBe(404);
    expect(errorSchema.parse(await missing.json()).code).toBe('not_found');
    const wrong = await fetch(`${server.baseUrl}/api/v1/projects`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(errorSchema.parse(await wrong.json()).code).toBe('method_not_allowed');
  });

  it('answers CORS preflights and exposes the rate-limit headers', async () => {
    const preflight = await fetch(`${server.baseUrl}/api/v1/projects`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const read = await fetch(`${server.baseUrl}/api/v1/projects`);
    expect(read.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
  });

  it("writes one JSON access-log line per request, with our own id, the caller's id and the client IP", async () => {
    const id = `log-check-${Date.now()}`;
    const answered = await fetch(`${server.baseUrl}/api/v1/projects?limit=1`, { headers: { 'x-request-id': id } });
    // The caller's id comes back, so it can match the answer to its request...
    expect(answered.headers.get('x-request-id')).toBe(id);
    await fetch(`${server.baseUrl}/`, { headers: { 'x-request-id': `${id}-page` } });
    await fetch(`${server.baseUrl}/api/v1/projects?limit=1`);
    // The log is written in request order: once the page's line is read, the API request's is too.
    await waitFor(
      () => server.logLines.some((line) => line.clientRequestId === `${id}-page`),
      'the access-log line of the page request',
    );
    // ...but it never replaces ours in the log: a caller cannot choose the id, or reuse another's.
    const api = server.logLines.filter((line) => line.clientRequestId === id);
    expect(api).toHaveLength(1);
    expect(api[0]).toMatchObject({ method: 'GET', path: '/api/v1/projects', status: 200, clientIp: '127.0.0.1' });
    expect(api[0]!.requestId).toMatch(OUR_REQUEST_ID);
    expect(typeof api[0]!.durationMs).toBe('number');
    expect(Date.parse(api[0]!.time as string)).not.toBeNaN();
    expect(server.logLines.filter((line) => line.clientRequestId === `${id}-page`)).toEqual([
      expect.objectContaining({
        path: '/',
        clientIp: '127.0.0.1',
        requestId: expect.stringMatching(OUR_REQUEST_ID) as unknown,
      }),
    ]);
    expect(server.logLines.filter((line) => line.requestId === id)).toEqual([]);
  });

  it('believes X-Forwarded-For only with TRUST_PROXY', async () => {
    const spoofable = await startService({ READ_RATE_LIMIT: '1/60' });
    const proxied = await startService({ READ_RATE_LIMIT: '1/60', TRUST_PROXY: '1' });
    try {
      const statuses = async (base: string) => {
        const out: number[] = [];
        for (const ip of ['1.1.1.1', '2.2.2.2']) {
          out.push((await fetch(`${base}/api/v1/projects`, { headers: { 'x-forwarded-for': ip } })).status);
        }
        return out;
      };
      // Without trusted proxies both requests come from the same socket address.
      expect(await statuses(spoofable.baseUrl)).toEqual([200, 429]);
      expect(await statuses(proxied.baseUrl)).toEqual([200, 200]);
    } finally {
      await Promise.all([spoofable.stop(), proxied.stop()]);
    }
  });

  it('counts forwarded clients by strictly parsed address: ports dropped, odd spellings refused, IPv6 per /64', async () => {
    const proxied = await startService({ READ_RATE_LIMIT: '2/60', TRUST_PROXY: '1' });
    try {
      const statuses = async (hops: string[]) => {
        const out: number[] = [];
        for (const hop of hops)
          out.push((await fetch(`${proxied.baseUrl}/api/health`, { headers: { 'x-forwarded-for': hop } })).status);
        return out;
      };
      expect(await statuses(['192.0.2.1:1234', '192.0.2.1:5678', '192.0.2.1'])).toEqual([200, 200, 429]);
      expect(await statuses(['2001:db8::1', '[2001:db8::2]:443', '2001:DB8:0:0:ffff::3', '2001:db8:0:1::1'])).toEqual([
        200, 200, 429, 200,
      ]);
      // Not addresses: each falls back to the proxy's own address, one client among them.
      expect(await statuses(['::::7', '1.2.3.4:x', '[192.0.2.9]'])).toEqual([200, 200, 429]);
    } finally {
      await proxied.stop();
    }
  });

  it.each([
    ['PORT', 'eighty'],
    ['READ_RATE_LIMIT', '10 per minute'],
    ['SITE_URL', 'localhost'],
    ['TRUST_PROXY', '-1'],
    ['API_ORIGIN', 'http://api.example'],
    ['BACKEND_ORIGIN', 'http://backend.example'],
  ])('refuses to start with a bad %s and names it', async (variable, value) => {
    const { code, stderr } = await startExpectingFailure({ [variable]: value });
    expect(code).toBe(1);
    expect(stderr).toContain(`Invalid ${variable}=`);
  });

  it('refuses to start with both API_ORIGIN and BACKEND_ORIGIN, in one line naming both', async () => {
    const { code, stderr } = await startExpectingFailure({
      API_ORIGIN: 'https://api.ada.example',
      BACKEND_ORIGIN: 'https://backend.ada.example',
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^Invalid BACKEND_ORIGIN="https:\/\/backend\.ada\.example": expected empty while API_ORIGIN is set \(https:\/\/api\.ada\.example\)[^\n]*\n$/,
    );
  });

  it('refuses a DATABASE_URL whose sslkey file is missing in one line, its secrets redacted', async () => {
    const { code, stderr } = await startExpectingFailure({
      DATABASE_URL:
        'postgresql://portfolio:user-secret@127.0.0.1:9/portfolio?sslmode=require&sslkey=/nonexistent/client.key&sslpassword=key-secret',
    });
    expect(code).toBe(1);
    expect(stderr).toBe(
      'Invalid DATABASE_URL="postgresql://portfolio@127.0.0.1:9/portfolio?sslmode=require&sslkey=***&sslpassword=***": ' +
        'expected its sslkey file /nonexistent/client.key to be readable (ENOENT).\n',
    );
  });

  it.skipIf(!HAS_POSTGRES)('never writes the secrets of DATABASE_URL to its log or its errors', async () => {
    const url = new URL(await freshDatabaseUrl());
    url.password = 'user-secret';
    url.searchParams.set('sslpassword', 'key-secret');
    url.searchParams.set('application_name', 'portfolio-test');
    const onPostgres = await startServer({ DATABASE_URL: url.href }, freshDataDir());
    await onPostgres.stop();
    const written = JSON.stringify(onPostgres.logLines) + onPostgres.stderr();
    expect(written).not.toMatch(/user-secret|key-secret/);
    const listening = onPostgres.logLines.find((line) => line.message === 'listening');
    expect(listening?.storage).toMatch(
      // The run's databases take connect_timeout (tests/support/postgres.ts), shown as it is: not a secret.
      /^postgresql \(postgresql:\/\/postgres@127\.0\.0\.1:\d+\/\w+\?connect_timeout=\d+&sslpassword=\*\*\*&application_name=portfolio-test\)$/,
    );
  });

  it.each([
    ['READ_RATE_LIMIT', '7/60'],
    ['SITE_URL', 'https://elsewhere.example'],
    ['API_ORIGIN', 'https://api.elsewhere.example'],
    ['BACKEND_ORIGIN', 'https://backend.elsewhere.example'],
  ])('refuses a build made with another %s, naming the variable and what to run', async (variable, value) => {
    const { code, stderr } = await startExpectingFailure({ [variable]: value });
    expect(code).toBe(1);
    expect(stderr).toContain(`${variable}: built with`);
    expect(stderr).toContain(JSON.stringify(value));
    expect(stderr).toContain('npm run build');
  });

  it('refuses a database written by a newer version, saying what to do and leaving it untouched', async () => {
    const dataDir = freshDataDir();
    const file = path.join(dataDir, 'portfolio.db');
    const newer = new Database(file);
    newer.pragma('user_version = 999');
    newer.close();
    const { code, stderr } = await startExpectingFailure({ DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(stderr).toContain('schema version 999, newer than this version of the service knows');
    expect(stderr).not.toMatch(/\n\s+at /);
    const after = new Database(file, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(999);
    after.close();
  });

  it('enforces the quota that pricing.md and the OpenAPI description publish', async () => {
    const limit = Number((await fetch(`${server.baseUrl}/api/v1/projects`)).headers.get('ratelimit-limit'));
    const pricing = await (await fetch(`${server.baseUrl}/pricing.md`)).text();
    const openapi = JSON.stringify(await (await fetch(`${server.baseUrl}/openapi.json`)).json());
    expect(limit).toBeGreaterThan(0);
    expect(pricing).toMatch(new RegExp(`\\| Requests [^|]*\\| ${limit} per \\d+ s \\|`));
    expect(openapi).toContain(`Quota: ${limit} requests per`);
  });

  it('finishes in-flight requests on SIGTERM, then exits 0', async () => {
    const draining = await startServer();
    const inFlight = Array.from({ length: 20 }, () => fetch(`${draining.baseUrl}/api/v1/projects`));
    const exit = draining.stop('SIGTERM');
    const responses = await Promise.allSettled(inFlight);
    expect(await exit).toBe(0);
    // Requests the server had accepted were answered; none was cut off mid-response.
    for (const result of responses) {
      if (result.status === 'fulfilled') expect(result.value.status).toBe(200);
    }
    expect(draining.logLines.some((line) => line.message === 'shutting down')).toBe(true);
  });
});
