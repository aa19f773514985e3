import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type InProcessApi } from '../support/api.ts';
import { MODERN_ENVELOPE, MODERN_VERSION } from '../support/mcp-eras.ts';

/**
 * DNS rebinding protection by Host (MCP transports, "Security Warning"): a page of another site
 * whose name resolves to this server names that site in Host, with or without an Origin.
 */

const servers: InProcessApi[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
});

/** An API with the default host policy (no extra names), under the given settings. */
async function api(env: Record<string, string> = {}): Promise<InProcessApi> {
  const server = await startApi({ MCP_ALLOWED_HOSTS: '', ...env });
  servers.push(server);
  return server;
}

/** The same request in each era: a 2025 tools/list, and a 2026-07-28 one with its envelope and headers. */
const ERAS = {
  '2025-11-25': (id: number) => ({
    headers: { 'mcp-protocol-version': '2025-11-25' },
    body: { jsonrpc: '2.0', id, method: 'tools/list', params: {} },
  }),
  [MODERN_VERSION]: (id: number) => ({
    headers: { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/list' },
    body: { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: MODERN_ENVELOPE } },
  }),
};

async function send(
  server: InProcessApi,
  era: keyof typeof ERAS,
  host: string,
  { id = 1, path = '/mcp', headers = {} }: { id?: number; path?: string; headers?: Record<string, string> } = {},
) {
  const { headers: eraHeaders, body } = ERAS[era](id);
  const answer = await server.request({
    method: 'POST',
    path,
    headers: {
      host,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...eraHeaders,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return {
    status: answer.status,
    body: JSON.parse(answer.body.toString()) as { id?: unknown; result?: { tools?: unknown[] }; error?: unknown },
  };
}

const eras = Object.keys(ERAS) as (keyof typeof ERAS)[];

describe('MCP Host validation', () => {
  let loopbackBound: InProcessApi;
  beforeAll(async () => {
    loopbackBound = await api();
  });

  it.each(eras)(
    'serves the SITE_URL host, its sandbox name and loopback names on a loopback-bound server (%s)',
    async (era) => {
      const site = new URL(loopbackBound.config.siteUrl);
      for (const path of ['/mcp', '/mcp/docs'])
        for (const host of [
          site.host,
          site.hostname,
          `sandbox.${site.hostname}`,
          'localhost:4321',
          '127.0.0.1:8080',
          '[::1]:9',
        ])
          expect(await send(loopbackBound, era, host, { path }), `${path} ${host}`).toMatchObject({
            status: 200,
            body: { result: { tools: expect.any(Array) } },
          });
    },
  );

  it.each(eras)(
    'refuses a foreign Host with 403 host_not_allowed naming the request id, on both endpoints (%s)',
    async (era) => {
      for (const path of ['/mcp', '/mcp/docs'])
        for (const host of [
          'evil.example',
          'evil.example:4321',
          `${new URL(loopbackBound.config.siteUrl).hostname}.evil.example`,
        ]) {
          const refused = await send(loopbackBound, era, host, { id: 41, path });
          expect(refused, `${path} ${host}`).toMatchObject({
            status: 403,
            body: {
              jsonrpc: '2.0',
              id: 41,
              error: { code: -32000, message: expect.stringMatching(/Host/), data: { code: 'host_not_allowed' } },
            },
          });
        }
    },
  );

  it('refuses a foreign Host even with an allowed Origin, and before the quota is charged', async () => {
    const limited = await api({ READ_RATE_LIMIT: '2/60' });
    const origin = new URL(limited.config.siteUrl).origin;
    for (let i = 0; i < 5; i++)
      expect((await send(limited, '2025-11-25', 'evil.example', { headers: { origin } })).status).toBe(403);
    expect((await send(limited, '2025-11-25', new URL(limited.config.siteUrl).host)).status).toBe(200);
  });

  it('answers only its own names when it listens on every interface, plus those of MCP_ALLOWED_HOSTS', async () => {
    const exposed = await api({ HOST: '0.0.0.0', MCP_ALLOWED_HOSTS: 'www.portfolio.example' });
    const site = new URL(exposed.config.siteUrl);
    for (const era of eras) {
      expect((await send(exposed, era, site.host)).status, era).toBe(200);
      expect((await send(exposed, era, 'www.portfolio.example')).status, era).toBe(200);
      if (site.hostname !== 'localhost') expect((await send(exposed, era, 'localhost:4321')).status, era).toBe(403);
      expect((await send(exposed, era, '127.0.0.1:4321')).status, era).toBe(403);
    }
  });

  it('behind a proxy (TRUST_PROXY=1), serves the public name the proxy passes on and refuses others', async () => {
    const proxied = await api({ TRUST_PROXY: '1', SITE_URL: 'https://portfolio.example' });
    // nginx's `proxy_set_header Host $host`: the name the visitor asked for, without a port.
    const visitor = { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' };
    for (const era of eras) {
      expect((await send(proxied, era, 'portfolio.example', { headers: visitor })).status, era).toBe(200);
      expect((await send(proxied, era, 'sandbox.portfolio.example', { headers: visitor })).status, era).toBe(200);
      expect(await send(proxied, era, 'evil.example', { id: 7, headers: visitor }), era).toMatchObject({
        status: 403,
        body: { id: 7, error: { data: { code: 'host_not_allowed' } } },
      });
    }
  });

  it('refuses a foreign Host on GET and the preflight too, with a null id and never a 5xx', async () => {
    for (const method of ['GET', 'OPTIONS', 'DELETE']) {
      const answer = await loopbackBound.request({ method, path: '/mcp', headers: { host: 'evil.example' } });
      expect(answer.status, method).toBe(403);
      expect(JSON.parse(answer.body.toString()), method).toMatchObject({ id: null, error: { code: -32000 } });
    }
    const notJson = await loopbackBound.request({
      method: 'POST',
      path: '/mcp/docs',
      headers: { host: 'evil.example', 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    });
    expect(notJson.status).toBe(403);
    expect(JSON.parse(notJson.body.toString())).toMatchObject({ id: null });
  });
});
