import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type InProcessApi } from '../support/api.ts';
import { VALID } from '../support/contact.ts';
import { queryState } from '../support/raw-state.ts';
import { errorSchema } from '../support/schemas.ts';

let server: InProcessApi;
let siteOrigin: string;
let testKey: string;
const FOREIGN = 'https://evil.example';

beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '1000/60', CONTACT_RATE_LIMIT: '100/60', KEYS_RATE_LIMIT: '100/3600' });
  siteOrigin = new URL(server.config.siteUrl).origin;
  const created = await server.request({
    method: 'POST',
    path: '/api/v1/keys',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  testKey = (JSON.parse(created.body.toString()) as { key: string }).key;
});
afterAll(() => server.stop());

function preflight(path: string, origin: string, method: string, requestHeaders?: string) {
  return server.request({
    method: 'OPTIONS',
    path,
    headers: {
      origin,
      'access-control-request-method': method,
      ...(requestHeaders === undefined ? {} : { 'access-control-request-headers': requestHeaders }),
    },
  });
}

/** Every write of the API as a page would send it, with a fresh Idempotency-Key for the contact message. */
const WRITES = [
  { path: '/api/v1/contact', type: 'application/json', body: JSON.stringify(VALID) },
  { path: '/api/v1/jobs', type: 'application/json', body: '{"task": "stats"}' },
  { path: '/api/v1/keys', type: 'application/json', body: '{}' },
  { path: '/api/v1/batch', type: 'application/json', body: '{"operations": [{"op": "listProjects"}]}' },
  { path: '/oauth/token', type: 'application/x-www-form-urlencoded', body: 'grant_type=client_credentials' },
];

function write(target: (typeof WRITES)[number], headers: Record<string, string>) {
  return server.request({
    method: 'POST',
    path: target.path,
    headers: { 'content-type': target.type, 'idempotency-key': randomUUID(), ...headers },
    body: target.body,
  });
}

const count = async (table: string) =>
  Number((await queryState(server.dataDir, `SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);

describe('CORS preflights', () => {
  it.each(WRITES.map((target) => target.path))(
    'refuses a foreign page the preflight of a POST to %s without a key: 403, no Access-Control-Allow-Origin',
    async (path) => {
      const refused = await preflight(path, FOREIGN, 'POST', 'content-type');
      expect(refused.status).toBe(403);
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
      expect(refused.headers['access-control-allow-methods']).toBeUndefined();
      expect(errorSchema.parse(JSON.parse(refused.body.toString())).code).toBe('cross_origin_refused');
    },
  );

  it('allows a POST preflight that announces a key, from any origin', async () => {
    for (const headers of ['content-type, x-api-key', 'Authorization,Content-Type,Idempotency-Key']) {
      const allowed = await preflight('/api/v1/contact', FOREIGN, 'POST', headers);
      expect(allowed.status, headers).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe('*');
      expect(allowed.headers['access-control-allow-methods']).toContain('POST');
      expect(allowed.headers['access-control-allow-headers']).toMatch(
        /Authorization.*X-API-Key|X-API-Key.*Authorization/,
      );
    }
  });

  it("allows a POST preflight from the site's own origin and from the origin the request was sent to", async () => {
    for (const origin of [siteOrigin, new URL(server.baseUrl).origin]) {
      const allowed = await preflight('/api/v1/contact', origin, 'POST', 'content-type, idempotency-key');
      expect(allowed.status, origin).toBe(204);
      expect(allowed.headers['access-control-allow-methods']).toContain('POST');
    }
  });

  it('allows reads from any origin, and offers a foreign page only the reads', async () => {
    const read = await preflight('/api/v1/projects', FOREIGN, 'GET', 'x-api-version');
    expect(read.status).toBe(204);
    expect(read.headers['access-control-allow-origin']).toBe('*');
    expect(read.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    const answer = await server.request({ path: '/api/v1/projects', headers: { origin: FOREIGN } });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('cross-origin writes', () => {
  it('refuses every POST from a foreign page without a valid key with 403 cross_origin_refused, creating nothing', async () => {
    const before = {
      messages: await count('messages'),
      jobs: await count('jobs'),
      keys: await count('api_keys'),
    };
    for (const target of WRITES) {
      const variants: Record<string, string>[] = [
        { origin: FOREIGN },
        { origin: 'null' },
        // A key that does not verify is no key.
        { origin: FOREIGN, 'x-api-key': 'pk_test_forged' },
        { origin: FOREIGN, authorization: 'Basic eDp5' },
      ];
      for (const headers of variants) {
        const answer = await write(target, headers);
        const body = errorSchema.parse(JSON.parse(answer.body.toString()));
        expect([target.path, headers, answer.status, body.code]).toEqual([
          target.path,
          headers,
          403,
          'cross_origin_refused',
        ]);
        // The page's script may read why.
        expect(answer.headers['access-control-allow-origin']).toBe('*');
      }
    }
    expect({ messages: await count('messages'), jobs: await count('jobs'), keys: await count('api_keys') }).toEqual(
      before,
    );
  });

  it('serves a foreign page that sends a valid key, and the site itself without one', async () => {
    const keyed = await write(WRITES[0]!, { origin: FOREIGN, 'x-api-key': testKey });
    expect(keyed.status, keyed.body.toString()).toBe(200);
    expect(keyed.headers['x-sandbox']).toBe('true');
    const bearer = await write(WRITES[1]!, { origin: FOREIGN, authorization: `Bearer ${testKey}` });
    expect(bearer.status, bearer.body.toString()).toBe(202);
    for (const origin of [siteOrigin, new URL(server.baseUrl).origin]) {
      const own = await write(WRITES[0]!, { origin });
      expect(own.status, `${origin}: ${own.body.toString()}`).toBe(200);
    }
    // Scripts, agents and servers send no Origin.
    expect((await write(WRITES[0]!, {})).status).toBe(200);
  });
});
