import { randomUUID } from 'node:crypto';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../functions/config/env.ts';
import { docFacts } from '../../functions/discovery/doc-facts.ts';
import { mcpServers } from '../../functions/mcp/mcp-servers.ts';
import { registryEntry } from '../../functions/mcp/registry-entry.ts';
import { buildOpenApiDocument } from '../../functions/openapi/document.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { storedInbox, VALID } from '../support/contact.ts';
import { toolsListFrom } from '../support/mcp.ts';

/** The pages on one origin, the dynamic part on another (API_ORIGIN). */
const SITE = 'https://ada.example';
const API = 'https://api.ada.example';
const SPLIT = { SITE_URL: SITE, API_ORIGIN: API };

describe('API_ORIGIN, as the configuration reads it', () => {
  it('is empty by default: everything on SITE_URL', () => {
    expect(loadConfig({ SITE_URL: SITE }).apiOrigin).toBeNull();
  });

  it('takes an https origin, or http on a loopback host, written as its origin', () => {
    expect(loadConfig(SPLIT).apiOrigin).toBe(API);
    expect(loadConfig({ ...SPLIT, API_ORIGIN: `${API}/` }).apiOrigin).toBe(API);
    expect(loadConfig({ ...SPLIT, API_ORIGIN: 'http://127.0.0.1:8787' }).apiOrigin).toBe('http://127.0.0.1:8787');
    expect(loadConfig({ ...SPLIT, API_ORIGIN: 'http://localhost:8787' }).apiOrigin).toBe('http://localhost:8787');
  });

  it.each([
    ['plain http on a public host', 'http://api.ada.example'],
    ['a path', 'https://api.ada.example/v1'],
    ['a query', 'https://api.ada.example/?x=1'],
    ['credentials', 'https://user:pw@api.ada.example'],
    ['another scheme', 'ftp://api.ada.example'],
    ['no URL', 'api.ada.example'],
  ])('refuses %s, naming the variable', (_what, value) => {
    expect(() => loadConfig({ ...SPLIT, API_ORIGIN: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...SPLIT, API_ORIGIN: value })).toThrow(/^Invalid API_ORIGIN=/);
  });
});

describe('documents name API_ORIGIN for the dynamic paths, SITE_URL for the rest', () => {
  const config = loadConfig(SPLIT);

  it('OpenAPI: servers and the token URL', () => {
    const document = buildOpenApiDocument(config);
    expect(document.servers).toEqual([{ url: API }]);
    const oauth = document.components?.securitySchemes?.oauth2 as {
      flows: { clientCredentials: { tokenUrl: string } };
    };
    expect(oauth.flows.clientCredentials.tokenUrl).toBe(`${API}/oauth/token`);
    expect(document.info.contact?.url).toBe(SITE);
  });

  it('the facts the developer pages and skills quote', () => {
    const facts = docFacts(config);
    expect(facts).toMatchObject({
      siteUrl: SITE,
      serviceUrl: API,
      apiBase: `${API}/api/v1`,
      'mcp.url': `${API}/mcp`,
      'mcp.docs.url': `${API}/mcp/docs`,
    });
  });

  it('server cards: remotes on the API origin, the website on the site', async () => {
    const server = await startApi(SPLIT);
    try {
      const servers = mcpServers({
        catalog: server.api.services.catalog,
        docs: [],
        siteUrl: SITE,
        apiOrigin: API,
      });
      for (const [id, path] of [
        ['product', '/mcp'],
        ['docs', '/mcp/docs'],
      ] as const) {
        const card = JSON.parse(await servers.card(id)) as { websiteUrl: string; remotes: { url: string }[] };
        expect(card.websiteUrl).toBe(SITE);
        expect(card.remotes.map((remote) => remote.url)).toEqual([`${API}${path}`]);
        // The well-known copy's transport and the registry entry's remote name the same endpoint.
        const copy = JSON.parse(await servers.card(id, 'well-known')) as { transport: { url: string } };
        expect(copy.transport.url).toBe(`${API}${path}`);
        const entry = registryEntry(id, { siteUrl: SITE, apiOrigin: API });
        expect([entry.websiteUrl, ...entry.remotes.map((remote) => remote.url)]).toEqual([SITE, `${API}${path}`]);
      }
    } finally {
      await server.stop();
    }
  });
});

describe('the service on its own origin', () => {
  let server: InProcessApi;
  beforeAll(async () => {
    server = await startApi({ ...SPLIT, CONTACT_RATE_LIMIT: '100/60', READ_RATE_LIMIT: '1000/60' });
  });
  afterAll(() => server.stop());

  it('answers with URLs on itself: a job to poll, the API index, the contact twin', async () => {
    const job = await server.request({
      method: 'POST',
      path: '/api/v1/jobs',
      headers: { 'content-type': 'application/json' },
      body: '{"task": "stats"}',
    });
    expect(job.status).toBe(202);
    expect(job.headers.location).toMatch(new RegExp(`^${API}/api/v1/jobs/job_`));
    const index = JSON.parse((await server.request({ path: '/api/v1' })).body.toString()) as {
      links: Record<string, string>;
    };
    expect(index.links.health).toBe(`${API}/api/health`);
    expect(index.links.openapi).toBe(`${SITE}/openapi.json`);
    const twin = (await server.request({ path: '/contact.md' })).body.toString();
    expect(twin).toContain(`POST ${API}/api/v1/contact`);
    expect(twin).toContain(`the form at ${SITE}/contact`);
  });

  it("lets the site's pages post a message across origins, with CORS, and refuses a foreign page", async () => {
    const preflight = await server.request({
      method: 'OPTIONS',
      path: '/api/v1/contact',
      headers: {
        origin: SITE,
        host: new URL(API).host,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, idempotency-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    const post = (origin: string) =>
      server.request({
        method: 'POST',
        path: '/api/v1/contact',
        headers: {
          origin,
          host: new URL(API).host,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({ ...VALID, message: `From the site ${randomUUID()}`, form: { token: '', honeypot: '' } }),
      });
    const sent = await post(SITE);
    expect(sent.status).toBe(200);
    expect(sent.headers['access-control-allow-origin']).toBe('*');
    expect((await post('https://evil.example')).status).toBe(403);
  });

  it('takes the static contact form without JavaScript (no key, no token) and sends the visitor back to the site', async () => {
    const message = `Plain form ${randomUUID()}`;
    const response = await fetch(`${server.baseUrl}/contact`, {
      method: 'POST',
      headers: { origin: SITE },
      body: new URLSearchParams({ idempotency_key: '', form_token: '', website: '', ...VALID, message }),
      redirect: 'manual',
    });
    expect([response.status, response.headers.get('location')]).toEqual([303, `${SITE}/contact/thanks`]);
    // The static page carries no token: its absence is no sign of a bot there.
    expect((await storedInbox(server.dataDir)).map((entry) => entry.message)).toContain(message);
    expect((await storedInbox(server.dataDir, { folder: 'spam' })).map((entry) => entry.message)).not.toContain(
      message,
    );
  });

  it("takes the plain form only from the site's pages: a post from another page, or from none, is refused and stores nothing", async () => {
    const postForm = (headers: Record<string, string>) => {
      const message = `Form post ${randomUUID()}`;
      const sent = fetch(`${server.baseUrl}/contact`, {
        method: 'POST',
        headers,
        body: new URLSearchParams({ idempotency_key: '', form_token: '', website: '', ...VALID, message }),
        redirect: 'manual',
      });
      return { message, sent };
    };
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      // A look-alike of the site's origin: another scheme, another port, a longer name.
      { origin: 'http://ada.example' },
      { origin: 'https://ada.example:8443' },
      { origin: 'https://ada.example.evil.example' },
      // A page whose referrer policy hides its origin (Fetch standard: Origin: null).
      { origin: 'null' },
      // Origin decides when it is there, whatever Referer says.
      { origin: 'https://evil.example', referer: `${SITE}/contact` },
      { referer: 'https://evil.example/contact' },
      { referer: 'not a URL' },
      // Neither: no browser page sent it (programs use the API).
      {},
    ];
    const messages: string[] = [];
    for (const headers of refused) {
      const { message, sent } = postForm(headers);
      messages.push(message);
      const response = await sent;
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await response.text();
      expect(html).toContain('site’s own contact page only');
      // The form comes back empty: nothing the foreign page filled in is offered to send again.
      expect(html).not.toContain(VALID.email);
      expect(html).not.toContain(message);
    }
    const stored = [
      ...(await storedInbox(server.dataDir)),
      ...(await storedInbox(server.dataDir, { folder: 'spam' })),
    ].map((entry) => entry.message);
    for (const message of messages) expect(stored).not.toContain(message);

    // The site's pages, by Origin or (without one) by Referer, and the form the API origin shows again.
    const accepted: Record<string, string>[] = [
      { origin: SITE },
      { referer: `${SITE}/contact` },
      { origin: API },
      { origin: SITE, referer: 'https://evil.example/' },
    ];
    for (const headers of accepted) {
      const { message, sent } = postForm(headers);
      const response = await sent;
      expect([response.status, response.headers.get('location')], JSON.stringify(headers)).toEqual([
        303,
        `${SITE}/contact/thanks`,
      ]);
      expect((await storedInbox(server.dataDir)).map((entry) => entry.message)).toContain(message);
    }
  });

  it('shows the form again with the problem and the values, its links leading back to the site', async () => {
    const response = await fetch(`${server.baseUrl}/contact`, {
      method: 'POST',
      headers: { origin: SITE },
      body: new URLSearchParams({ ...VALID, email: 'not an address', message: 'Hello there, a message.' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('Please correct the fields marked below.');
    expect(html).toContain('value="not an address"');
    expect(html).toMatch(new RegExp(`<a [^>]*href="${SITE}/"`));
    expect(html).not.toMatch(/<a [^>]*href="\/(?!\/)/);
  });

  it('renders search results whose links lead back to the site', async () => {
    const response = await fetch(`${server.baseUrl}/search?q=api`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(new RegExp(`<li class="search-result"><h2><a href="${SITE}/`));
    expect(response.headers.get('link')).toContain(`<${API}/search.md?q=api>`);
  });

  it("allows the API origin in the pages' Content-Security-Policy (connect-src, form-action), and the site in form-action (the redirect back)", async () => {
    const csp = (await server.request({ path: '/api/v1' })).headers['content-security-policy'] ?? '';
    expect(csp).toContain(`connect-src 'self' ${API}`);
    expect(csp).toContain(`form-action 'self' ${SITE} ${API}`);
  });

  it("answers MCP at the API origin's host name (the Host check), and still refuses another", async () => {
    const list = (host: string) => toolsListFrom(server, SITE, host);
    expect((await list(new URL(API).host)).status).toBe(200);
    expect((await list('rebound.example')).status).toBe(403);
  });

  it("accepts MCP requests from the site's pages, and refuses a foreign page", async () => {
    const mcp = (origin: string) =>
      fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          origin,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    const allowed = await mcp(SITE);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SITE);
    expect((await mcp('https://evil.example')).status).toBe(403);
  });
});
