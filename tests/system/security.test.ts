import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { postContact, VALID } from '../support/contact.ts';
import { freshDataDir, startServer, type RunningServer } from '../support/server.ts';
import { waitFor } from '../support/webhook.ts';

let server: RunningServer;

beforeAll(async () => {
  // A DATA_DIR the server makes itself, under a umask that would let everyone read and write.
  const umask = process.umask(0);
  try {
    server = await startServer(
      { READ_RATE_LIMIT: '100000/60', KEYS_RATE_LIMIT: '1000/60' },
      path.join(freshDataDir(), 'data'),
    );
  } finally {
    process.umask(umask);
  }
});
afterAll(() => server.stop());

const SECURITY_HEADERS = [
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'x-frame-options',
  'cross-origin-opener-policy',
  'permissions-policy',
  'x-request-id',
];
const MCP_CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

describe('security headers', () => {
  it('are on every kind of response', async () => {
    const base = server.baseUrl;
    const kinds: [string, Promise<Response>][] = [
      ['page', fetch(`${base}/`)],
      ['page, Markdown twin', fetch(`${base}/developers`, { headers: { accept: 'text/markdown' } })],
      ['document', fetch(`${base}/openapi.yaml`)],
      [
        '304',
        fetch(`${base}/llms.txt`).then((first) =>
          fetch(`${base}/llms.txt`, { headers: { 'if-none-match': first.headers.get('etag')! } }),
        ),
      ],
      ['HEAD', fetch(`${base}/sitemap.xml`, { method: 'HEAD' })],
      ['404 page', fetch(`${base}/no-such-page`)],
      ['404 project page', fetch(`${base}/projects/nope`)],
      ['build document', fetch(`${base}/portfolio.json`)],
      ['301', fetch(`${base}/developers/`, { redirect: 'manual' })],
      ['405 static', fetch(`${base}/llms.txt`, { method: 'POST' })],
      ['API 200', fetch(`${base}/api/v1/projects`)],
      ['API problem', fetch(`${base}/api/v1/projects/no-such-project`)],
      ['API 400', fetch(`${base}/api/v1/projects?limit=0`)],
      ['API 404', fetch(`${base}/api/nope`)],
      [
        'API preflight',
        fetch(`${base}/api/v1/contact`, {
          method: 'OPTIONS',
          headers: { origin: 'https://x.example', 'access-control-request-method': 'POST' },
        }),
      ],
      [
        'form redirect',
        fetch(`${base}/contact`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'name=&email=&message=',
        }),
      ],
      [
        'MCP',
        fetch(`${base}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: MCP_CALL,
        }),
      ],
      ['MCP 405', fetch(`${base}/mcp`)],
      [
        'MCP 403',
        fetch(`${base}/mcp/docs`, { method: 'POST', headers: { origin: 'https://evil.example' }, body: MCP_CALL }),
      ],
      [
        'OAuth error',
        fetch(`${base}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=password',
        }),
      ],
    ];
    for (const [kind, pending] of kinds) {
      const response = await pending;
      for (const header of SECURITY_HEADERS)
        expect(response.headers.get(header), `${kind} (${response.status}): ${header}`).toBeTruthy();
      expect(response.headers.get('content-security-policy'), kind).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(response.headers.get('content-security-policy'), kind).toContain("frame-ancestors 'none'");
      // SITE_URL is http here; HSTS over https is tested in server.test.ts.
      expect(response.headers.get('strict-transport-security'), kind).toBeNull();
    }
  });
});

describe('no secrets, internals or stack traces in answers', () => {
  it('never serves the data directory, the sources or dot files', async () => {
    for (const probe of [
      '/data/portfolio.db',
      '/cursor.key',
      '/token.key',
      '/form.key',
      '/.env',
      '/package.json',
      '/functions/hosts/node/main.ts',
      '/%2e%2e/package.json',
      '/..%2fpackage.json',
      '/.git/config',
    ]) {
      const response = await fetch(`${server.baseUrl}${probe}`);
      expect(response.status, probe).toBe(404);
      expect(await response.text(), probe).not.toMatch(/"dependencies"|BEGIN|\[core\]/);
    }
  });

  it('answers broken input without stack traces or file paths', async () => {
    const answers = await Promise.all([
      fetch(`${server.baseUrl}/api/v1/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body: '{"name": ',
      }),
      fetch(`${server.baseUrl}/api/v1/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '[' + '['.repeat(10_000),
      }),
      fetch(`${server.baseUrl}/api/v1/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"task": {"__proto__": {"x": 1}}}',
      }),
      fetch(`${server.baseUrl}/api/v1/projects/%E0%A4%A`),
      fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_project","arguments":{"slug":{"$gt":""}}}}',
      }),
    ]);
    for (const response of answers) {
      const text = await response.text();
      expect(response.status, text).toBeLessThan(500);
      expect(text).not.toMatch(/\n\s+at |node:internal|\/functions\/|\.ts:\d+|SQLITE_|Error: /);
    }
  });

  it('keeps the data directory to its owner: DATA_DIR 0700, the database and secret files 0600', async () => {
    expect((await postContact(server.baseUrl, VALID)).status).toBe(200);
    const mode = (file: string) => (statSync(path.join(server.dataDir, file)).mode & 0o777).toString(8);
    expect(mode('.')).toBe('700');
    const files = readdirSync(server.dataDir).sort();
    expect(files).toEqual([
      'cursor.key',
      'form.key',
      'portfolio.db',
      'portfolio.db-shm',
      'portfolio.db-wal',
      'token.key',
    ]);
    for (const file of files) expect(mode(file), file).toBe('600');
  });

  it('keeps test keys and tokens out of the database file and the log', async () => {
    const created = (await (
      await fetch(`${server.baseUrl}/api/v1/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"label": "secret-check"}',
      })
    ).json()) as { key: string; keyId: string };
    const token = (await (
      await fetch(`${server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${created.keyId}:${created.key}`).toString('base64')}`,
        },
        body: 'grant_type=client_credentials',
      })
    ).json()) as { access_token: string };
    // Use both, so they pass through every layer that could log them.
    expect(
      (await fetch(`${server.baseUrl}/api/v1/sandbox/ping`, { headers: { 'x-api-key': created.key } })).status,
    ).toBe(200);
    expect(
      (
        await fetch(`${server.baseUrl}/api/v1/sandbox/ping?key=${created.key}`, {
          headers: { authorization: `Bearer ${token.access_token}` },
        })
      ).status,
    ).toBe(400);
    // The access log is written in request order: once the last request's line is read, every line is.
    await waitFor(
      () => server.logLines.some((line) => line.path === '/api/v1/sandbox/ping' && line.status === 400),
      'the access-log line of the last request',
    );
    const stored = readdirSync(server.dataDir)
      .map((file) => readFileSync(path.join(server.dataDir, file)).toString('latin1'))
      .join('\n');
    expect(stored).toContain('secret-check');
    expect(stored).not.toContain(created.key);
    expect(stored).not.toContain(created.key.slice('pk_test_'.length));
    expect(stored).not.toContain(token.access_token);
    const log = JSON.stringify(server.logLines);
    expect(log).not.toContain(created.key);
    expect(log).not.toContain(token.access_token);
  });
});

describe('script payloads never run', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  const PAYLOAD = `"><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">`;

  it('in the contact form echoed back without JavaScript, in search queries and in stored messages', async () => {
    const context = await browser.newContext({ javaScriptEnabled: true });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

    // The no-JS form path re-renders the submitted values when one is invalid.
    const form = await fetch(`${server.baseUrl}/contact`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        name: PAYLOAD,
        email: 'not-an-email',
        message: PAYLOAD,
        idempotency_key: crypto.randomUUID(),
      }).toString(),
    });
    const html = await form.text();
    expect(html).not.toContain('<script>window.__pwned');
    expect(html).toMatch(/&lt;script&gt;|&#60;script&#62;/);
    await page.setContent(html);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    for (const target of [`/search?q=${encodeURIComponent(PAYLOAD)}`, `/contact?name=${encodeURIComponent(PAYLOAD)}`]) {
      await page.goto(`${server.baseUrl}${target}`, { waitUntil: 'networkidle' });
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), target).toBeUndefined();
      expect(await page.content()).not.toContain('<script>window.__pwned');
    }

    // Stored as given, answered as JSON only: the API never renders it as HTML.
    const stored = await postContact(server.baseUrl, { ...VALID, name: PAYLOAD.slice(0, 150), message: PAYLOAD });
    expect(stored.status).toBe(200);
    expect(stored.headers.get('content-type')).toMatch(/^application\/json/);
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it('in project content: raw HTML that reaches a project page is stopped by the Content-Security-Policy', async () => {
    // Project Markdown may hold raw HTML, which Astro renders as it is. Put the payload into the
    // real page, served with the real headers, and check that nothing of it runs.
    const url = `${server.baseUrl}/projects/leakhound`;
    const real = await fetch(url);
    const headers = Object.fromEntries(real.headers);
    delete headers['content-encoding'];
    delete headers['content-length'];
    const tainted = (await real.text()).replace(
      '<main',
      `<main><p>${PAYLOAD}</p><a href="javascript:window.__pwned=3" id="bad">x</a>`,
    );
    const context = await browser.newContext();
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (entry) => {
      if (/Content Security Policy/i.test(entry.text())) blocked.push(entry.text());
    });
    await page.route(url, (route) => route.fulfill({ status: 200, headers, body: tainted }));
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.click('#bad');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(blocked.length).toBeGreaterThanOrEqual(2);
    await context.close();
  });
});
