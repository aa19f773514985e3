import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect as connectHttp2 } from 'node:http2';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALID } from '../support/contact.ts';
import { callTool, structured } from '../support/mcp.ts';
import { clientFetch, HAS_NGINX, startNginx, type RunningNginx } from '../support/nginx.ts';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';

/** A plain HTTP GET with the headers given as they are (fetch will not send another Host). */
function plainGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, location: answer.headers.location }));
    })
      .on('error', reject)
      .end();
  });
}

/** nginx's own request id ($request_id): 32 hexadecimal digits, where the service's ids are UUIDs. */
const NGINX_REQUEST_ID = /^[0-9a-f]{32}$/;

/**
 * A refusal nginx made itself, as the service makes its own: the Error shape as JSON, the
 * request id in the body and in X-Request-Id, no caching, and the security headers.
 */
async function nginxRefusal(answer: Response): Promise<Record<string, unknown>> {
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  expect(answer.headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  const body = (await answer.json()) as Record<string, unknown>;
  expect(body.requestId).toBe(answer.headers.get('x-request-id'));
  return body;
}

/**
 * The nginx site the build writes (dist/nginx/portfolio.conf, functions/hosts/nginx/site.ts), run
 * by Debian's nginx in front of the production server with TRUST_PROXY=1, as docs/deploy-vps.md
 * sets them up on one machine (only ports and the certificate differ: tests/support/nginx.ts).
 * nginx serves the built files itself (tests/system/nginx-static.test.ts compares them with the
 * service's) and passes the service's paths on. Each client of the test connects from an address
 * of its own in 127.0.0.0/8, as visitors do, and every request counts against a quota of 3 per address.
 */
describe.skipIf(!HAS_NGINX)('nginx in front of the service', () => {
  let server: RunningServer;
  let nginx: RunningNginx;
  let site: string;
  const visitor = (address: string) => clientFetch(nginx.ca, address);

  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: '1', READ_RATE_LIMIT: '3/60' });
    nginx = await startNginx(Number(new URL(server.baseUrl).port));
    site = nginx.httpsUrl;
  });
  afterAll(async () => {
    await nginx?.stop();
    await server?.stop();
  });

  it('redirects plain HTTP to HTTPS on the configured name, path and query kept, except ACME challenges', async () => {
    const answer = await fetch(`${nginx.httpUrl}/projects?page=2`, { redirect: 'manual' });
    expect(answer.status).toBe(301);
    expect(answer.headers.get('location')).toBe('https://example.com/projects?page=2');
    // Whatever Host the client names, the redirect goes to the site's own name.
    for (const host of ['evil.example', 'example.com.evil.example', '127.0.0.1']) {
      const redirect = await plainGet(`${nginx.httpUrl}/contact?x=1`, { host });
      expect([redirect.status, redirect.location], host).toEqual([301, 'https://example.com/contact?x=1']);
    }
    const challenge = await fetch(`${nginx.httpUrl}/.well-known/acme-challenge/token`, { redirect: 'manual' });
    expect(challenge.status).toBe(404);
  });

  it('serves pages over HTTP/2 itself, with the service’s caching and security headers', async () => {
    const session = connectHttp2(site, { ca: nginx.ca });
    try {
      const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const stream = session.request({ ':path': '/' });
        stream.on('response', (answer) => {
          stream.resume();
          stream.on('end', () => resolve(answer));
        });
        stream.on('error', reject);
      });
      expect(session.alpnProtocol).toBe('h2');
      expect(headers[':status']).toBe(200);
      expect(headers['content-type']).toBe('text/html; charset=utf-8');
      expect(headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect(headers['x-content-type-options']).toBe('nosniff');
      // Only the service sets X-Request-Id: nginx answered from the build.
      expect(headers['x-request-id']).toBeUndefined();
    } finally {
      session.close();
    }
  });

  it('serves documents with their short cache and hashed assets for a year, the service never asked', async () => {
    const get = visitor('127.0.0.2');
    const document = await get(`${site}/llms.txt`);
    expect(document.status).toBe(200);
    expect(document.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=3600');
    expect(document.headers.get('x-request-id')).toBeNull();

    const asset = readdirSync(path.join(ROOT, 'dist/client/_astro')).find((file) => file.endsWith('.css'));
    const first = await get(`${site}/_astro/${asset}`);
    const second = await get(`${site}/_astro/${asset}`);
    for (const answer of [first, second]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.get('x-request-id')).toBeNull();
    }
    expect(await second.text()).toBe(await first.text());
    // The quota of 3 reads per address is the service's: static files through nginx are never counted.
    const logged = server.logLines.filter((line) => typeof line.path === 'string' && /llms|_astro/.test(line.path));
    expect(logged).toEqual([]);
  });

  it('passes every dynamic path to the service: the API, both MCP servers, the contact post, search and the token endpoint', async () => {
    const through = async (address: string, urlPath: string, init: RequestInit = {}) => {
      const answer = await visitor(address)(`${site}${urlPath}`, init);
      expect(answer.headers.get('x-request-id'), urlPath).not.toBeNull();
      return answer;
    };
    expect((await through('127.0.0.10', '/api/v1/projects?limit=1')).status).toBe(200);
    // The service's own 404 (X-Request-Id), not nginx's page: /api is the service's path too.
    expect((await through('127.0.0.11', '/api')).status).toBe(404);
    const search = await through('127.0.0.12', '/search?q=leak');
    expect(search.status).toBe(200);
    expect(await search.text()).toContain('leak');
    const contact = await through('127.0.0.13', '/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=A&email=a%40example.com&message=hello',
    });
    expect([303, 400, 422]).toContain(contact.status);
    const token = await through('127.0.0.14', '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(401);
    for (const mcp of ['/mcp', '/mcp/docs']) {
      const answer = await through('127.0.0.15', mcp, { method: 'GET', headers: { accept: 'text/event-stream' } });
      expect(answer.status, mcp).toBe(405);
    }
    // The server card beside /mcp is a built file: nginx serves it.
    const card = await visitor('127.0.0.16')(`${site}/mcp/server-card`);
    expect([card.status, card.headers.get('x-request-id')]).toEqual([200, null]);
  });

  it('counts each visitor by the address nginx saw, whatever X-Forwarded-For the visitor sends', async () => {
    const visit = (address: string, spoofed: string) =>
      visitor(address)(`${site}/api/health`, { headers: { 'x-forwarded-for': spoofed } });
    const statuses: number[] = [];
    for (const spoofed of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4'])
      statuses.push((await visit('127.0.0.3', spoofed)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another visitor behind the same nginx has a quota of its own.
    const other = await visit('127.0.0.4', '198.51.100.1');
    expect(other.status).toBe(200);

    const requestId = other.headers.get('x-request-id');
    await expect.poll(() => server.logLines.find((line) => line.requestId === requestId)?.clientIp).toBe('127.0.0.4');
  });

  it('takes a contact message, and answers an oversize body with 413 at either limit', async () => {
    const post = (body: string) =>
      visitor('127.0.0.5')(`${site}/api/v1/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body,
      });
    const taken = await post(JSON.stringify(VALID));
    expect(taken.status, await taken.clone().text()).toBe(200);
    expect(taken.headers.get('cache-control')).toBe('no-store');

    // Over the contact limit (16 KiB) but within nginx's: the service's own answer, in its Error shape.
    const overContact = await post(JSON.stringify({ ...VALID, message: 'x'.repeat(20_000) }));
    expect(overContact.status).toBe(413);
    expect(await overContact.json()).toMatchObject({ code: 'payload_too_large' });
    // Over the largest body the service reads (64 KiB): nginx refuses it before it reaches the
    // service, in the same Error shape, with its own request id.
    const overAll = await post(JSON.stringify({ ...VALID, message: 'x'.repeat(65 * 1024) }));
    expect(overAll.status).toBe(413);
    const refusal = await nginxRefusal(overAll);
    expect(refusal).toEqual({
      code: 'payload_too_large',
      message: 'The body is larger than 65536 bytes.',
      hint: 'Send at most 65536 bytes.',
      requestId: expect.stringMatching(NGINX_REQUEST_ID),
    });
    expect(server.logLines.filter((line) => line.requestId === refusal.requestId)).toEqual([]);
  });

  it('answers its own refusal of a malformed path in the Error shape, with the service’s headers', async () => {
    for (const urlPath of ['/api/v1/projects/%00', '/api/v1/projects/%E0%A4%A', '/mcp%00', '/contact%']) {
      const answer = await visitor('127.0.0.7')(`${site}${urlPath}`);
      expect(answer.status, urlPath).toBe(400);
      expect(await nginxRefusal(answer), urlPath).toMatchObject({
        code: 'invalid_parameter',
        message: expect.stringContaining('malformed'),
        requestId: expect.stringMatching(NGINX_REQUEST_ID),
      });
    }
    // A well-formed path is still the service's to answer.
    const served = await visitor('127.0.0.7')(`${site}/api/v1/projects/%E0%A4%A0`);
    expect(served.status).toBe(404);
    expect(((await served.json()) as { requestId: string }).requestId).not.toMatch(NGINX_REQUEST_ID);
  });

  it('carries an MCP session: initialize and a tool call', async () => {
    const client = new Client({ name: 'portfolio-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${site}/mcp`), { fetch: visitor('127.0.0.6') }));
    try {
      const listed = structured(await callTool(client, 'list_projects', { limit: 2 }));
      expect(listed.data).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
});
