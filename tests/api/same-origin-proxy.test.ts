import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type InProcessApi } from '../support/api.ts';
import { VALID } from '../support/contact.ts';
import { toolsListFrom } from '../support/mcp.ts';

/**
 * The service behind a static host's proxy rules (BACKEND_ORIGIN): the visitor's browser is on
 * SITE_URL and names it in Origin; the host's proxy passes the request on to the backend with the
 * backend's own name in Host (functions/hosts/static/proxy-target.ts).
 */
const SITE = 'https://ada.example';
const BACKEND = 'https://backend.ada.example';
const BACKEND_HOST = new URL(BACKEND).host;

const servers: InProcessApi[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
});

/** Listening on every interface, so that no loopback name is allowed by the way it listens. */
async function api(env: Record<string, string>): Promise<InProcessApi> {
  const server = await startApi({ SITE_URL: SITE, HOST: '0.0.0.0', MCP_ALLOWED_HOSTS: '', ...env });
  servers.push(server);
  return server;
}

const listTools = (server: InProcessApi, host: string, path = '/mcp') => toolsListFrom(server, SITE, host, path);

describe('the service behind a same-origin proxy (BACKEND_ORIGIN)', () => {
  let server: InProcessApi;
  beforeAll(async () => {
    server = await api({ BACKEND_ORIGIN: BACKEND, CONTACT_RATE_LIMIT: '100/60' });
  });

  it("answers MCP for the Host the proxy sends (the backend's name and its sandbox name), from the site's pages, and still refuses another Host", async () => {
    for (const path of ['/mcp', '/mcp/docs']) {
      for (const host of [BACKEND_HOST, `sandbox.${BACKEND_HOST}`, new URL(SITE).host]) {
        const answer = await listTools(server, host, path);
        expect(answer.status, `${path} ${host}`).toBe(200);
        expect(answer.headers['access-control-allow-origin'], `${path} ${host}`).toBe(SITE);
      }
      expect((await listTools(server, 'rebound.example', path)).status, path).toBe(403);
    }
  });

  it('without BACKEND_ORIGIN, refuses the same Host: the variable is what allows it', async () => {
    const plain = await api({});
    expect((await listTools(plain, BACKEND_HOST)).status).toBe(403);
    expect((await listTools(plain, new URL(SITE).host)).status).toBe(200);
  });

  it("takes a write from the site's pages as its own (Origin SITE_URL, Host the backend's), and refuses a foreign page", async () => {
    const post = (origin: string) =>
      server.request({
        method: 'POST',
        path: '/api/v1/contact',
        headers: {
          origin,
          host: BACKEND_HOST,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({ ...VALID, message: `Through the proxy ${randomUUID()}` }),
      });
    expect((await post(SITE)).status).toBe(200);
    const foreign = await post('https://evil.example');
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body.toString())).toMatchObject({ code: 'cross_origin_refused' });
  });
});
