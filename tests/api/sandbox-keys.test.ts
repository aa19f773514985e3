import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContact, storedInbox, VALID } from '../support/contact.ts';
import { errorSchema } from '../support/schemas.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { queryState } from '../support/raw-state.ts';

let server: InProcessApi;

beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '1000/60', KEYS_RATE_LIMIT: '100/3600' });
});
afterAll(() => server.stop());

async function ping(headers: Record<string, string> = {}, query = '') {
  const response = await fetch(`${server.baseUrl}/api/v1/sandbox/ping${query}`, { headers });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

/** fetch() drops a Host header, so the sandbox host is sent with the in-process request. */
async function pingWithHost(host: string): Promise<{ sandbox: unknown; header: string | undefined }> {
  const answer = await server.request({ path: '/api/v1/sandbox/ping', headers: { host } });
  return {
    sandbox: (JSON.parse(answer.body.toString()) as { sandbox: unknown }).sandbox,
    header: answer.headers['x-sandbox'],
  };
}

async function createKey(body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}/api/v1/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { response, body: (await response.json()) as Record<string, string> };
}

function postToken(body: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body),
  });
}

describe('sandbox mode', () => {
  it('is off by default and on with each selector, always saying so in X-Sandbox', async () => {
    const plain = await ping();
    expect(plain.body).toEqual({ pong: true, sandbox: false });
    expect(plain.response.headers.get('x-sandbox')).toBeNull();
    for (const [headers, query] of [
      [{}, '?sandbox=true'],
      [{ 'x-sandbox': 'true' }, ''],
      [{ 'x-sandbox': '1' }, ''],
    ] as const) {
      const selected = await ping(headers, query);
      expect(selected.body, JSON.stringify(headers) + query).toEqual({ pong: true, sandbox: true });
      expect(selected.response.headers.get('x-sandbox')).toBe('true');
    }
    expect(await pingWithHost(`sandbox.localhost:${new URL(server.baseUrl).port}`)).toEqual({
      sandbox: true,
      header: 'true',
    });
    expect(await pingWithHost('www.localhost')).toEqual({ sandbox: false, header: undefined });
    expect((await ping({ 'x-sandbox': 'false' })).body.sandbox).toBe(false);
    expect((await ping({}, '?sandbox=false')).body.sandbox).toBe(false);
  });

  it('refuses other values and names the allowed ones', async () => {
    const header = await ping({ 'x-sandbox': 'yes' });
    expect(header.response.status).toBe(400);
    expect(errorSchema.parse(header.body).message).toContain('true, 1, false, 0');
    const query = await ping({}, '?sandbox=1');
    expect([query.response.status, query.body.code]).toEqual([400, 'invalid_parameter']);
  });

  it('is accepted by every operation as ?sandbox=true', async () => {
    for (const url of ['/api/v1/projects?sandbox=true', '/api/v1/projects/leakhound?sandbox=true']) {
      const response = await fetch(`${server.baseUrl}${url}`);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('x-sandbox')).toBe('true');
    }
  });
});

describe('test keys', () => {
  it('creates a prefixed key shown once, stored only as a hash, valid for 30 days', async () => {
    const { response, body } = await createKey({ label: 'integration test' });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(body.key).toMatch(/^pk_test_[A-Za-z0-9_-]{43}$/);
    expect(body.keyId).toMatch(/^key_/);
    expect(body.mode).toBe('test');
    expect(body.label).toBe('integration test');
    const lifetime = Date.parse(body.expiresAt!) - Date.parse(body.createdAt!);
    expect(lifetime).toBe(30 * 24 * 3600 * 1000);

    const rows = await queryState(server.dataDir, 'SELECT * FROM api_keys');
    const file = path.join(server.dataDir, 'portfolio.db');
    const text = JSON.stringify(rows) + (existsSync(file) ? readFileSync(file).toString('latin1') : '');
    expect(text).not.toContain(body.key);
    expect(rows.some((row) => row.id === body.keyId && typeof row.hash === 'string')).toBe(true);
  });

  it('accepts an empty body, and refuses unknown fields and bad labels', async () => {
    expect((await createKey()).response.status).toBe(201);
    expect((await createKey({})).response.status).toBe(201);
    const unknown = await createKey({ label: 'x', admin: true });
    expect([unknown.response.status, unknown.body.code]).toEqual([400, 'validation_failed']);
    expect((await createKey({ label: '' })).response.status).toBe(400);
    expect((await createKey([1])).response.status).toBe(400);
  });

  it('refuses the posts a page could send without a preflight, creating nothing', async () => {
    const count = async () => (await queryState(server.dataDir, 'SELECT COUNT(*) AS n FROM api_keys'))[0]!.n;
    const before = await count();
    // Fetch standard: a POST without a body, or with text/plain or a form type, is a CORS simple request.
    for (const headers of [
      {},
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ] as Record<string, string>[]) {
      for (const path of ['/api/v1/keys', '/api/v1/jobs']) {
        // From a foreign page the write is refused for its origin (cross-origin.test.ts); from the
        // site's own pages, for its type.
        for (const [origin, status, code] of [
          ['https://evil.example', 403, 'cross_origin_refused'],
          [new URL(server.config.siteUrl).origin, 415, 'unsupported_media_type'],
        ] as const) {
          const response = await fetch(`${server.baseUrl}${path}`, {
            method: 'POST',
            headers: { origin, ...headers },
          });
          expect([path, origin, response.status, ((await response.json()) as { code: string }).code]).toEqual([
            path,
            origin,
            status,
            code,
          ]);
        }
      }
    }
    expect(await count()).toBe(before);
  });

  it('selects sandbox and the test tier with Bearer or X-API-Key', async () => {
    const { body } = await createKey();
    const choices: Record<string, string>[] = [{ authorization: `Bearer ${body.key}` }, { 'x-api-key': body.key! }];
    for (const headers of choices) {
      const keyed = await ping(headers);
      expect(keyed.body.sandbox).toBe(true);
      expect(keyed.response.headers.get('x-quota-tier')).toBe('test');
      expect(keyed.response.headers.get('x-api-key-status')).toBe('valid');
      expect(keyed.response.headers.get('ratelimit-limit')).toBe('1200');
    }
    const anonymous = await ping();
    expect(anonymous.response.headers.get('x-quota-tier')).toBe('anonymous');
    expect(anonymous.response.headers.get('ratelimit-limit')).toBe('1000');
  });

  it('ignores unknown, malformed and empty keys without a 401', async () => {
    const ignoredKeys: Record<string, string>[] = [
      { authorization: `Bearer pk_test_${'A'.repeat(43)}` },
      { authorization: 'Bearer nonsense' },
      { 'x-api-key': 'pk_live_whatever' },
      { authorization: 'Bearer ' },
    ];
    for (const headers of ignoredKeys) {
      const ignored = await ping(headers);
      expect(ignored.response.status).toBe(200);
      expect(ignored.body.sandbox).toBe(false);
      expect(ignored.response.headers.get('x-api-key-status')).toBe('invalid');
      expect(ignored.response.headers.get('x-quota-tier')).toBe('anonymous');
    }
  });

  it('sends contact messages from a key to the sandbox inbox, never to production', async () => {
    const { body } = await createKey();
    const message = `Keyed message ${randomUUID()}`;
    const posted = await postContact(server.baseUrl, { ...VALID, message }, { headers: { 'x-api-key': body.key! } });
    expect(posted.status).toBe(200);
    expect(posted.headers.get('x-sandbox')).toBe('true');
    expect(posted.headers.get('ratelimit-limit')).toBe('50');
    expect((await storedInbox(server.dataDir)).some((entry) => entry.message === message)).toBe(false);
    expect((await storedInbox(server.dataDir, { sandbox: true })).some((entry) => entry.message === message)).toBe(
      true,
    );
  });

  it('survives a restart and expires; sandbox messages older than SANDBOX_RETENTION_SECONDS are purged, live ones kept', async () => {
    const short = await startApi({ TEST_KEY_TTL_SECONDS: '60' });
    try {
      const created = (await (
        await fetch(`${short.baseUrl}/api/v1/keys`, { method: 'POST', headers: { 'content-type': 'application/json' } })
      ).json()) as Record<string, string>;
      const [oldSandbox, freshSandbox, oldLive] = ['old sandbox', 'fresh sandbox', 'old live'].map(
        (label) => `${label} message ${randomUUID()}`,
      );
      for (const [message, headers] of [
        [oldSandbox, { 'x-api-key': created.key! }],
        [freshSandbox, { 'x-sandbox': 'true' }],
        [oldLive, {}],
      ] as const) {
        expect((await postContact(short.baseUrl, { ...VALID, message }, { headers })).status).toBe(200);
      }
      await short.stop();
      const again = await startApi({}, short.dataDir);
      try {
        const keyed = await fetch(`${again.baseUrl}/api/v1/sandbox/ping`, { headers: { 'x-api-key': created.key! } });
        expect(keyed.headers.get('x-api-key-status')).toBe('valid');
      } finally {
        await again.stop();
      }
      // Age the key past its expiry, and two messages past the default 7-day sandbox retention, in the database.
      await queryState(short.dataDir, 'UPDATE api_keys SET expires_at = ? WHERE id = ?', Date.now() - 1, created.keyId);
      const eightDaysAgo = Date.now() - 8 * 86_400_000;
      for (const message of [oldSandbox, oldLive])
        await queryState(short.dataDir, 'UPDATE messages SET created_at = ? WHERE message = ?', eightDaysAgo, message);
      const later = await startApi({}, short.dataDir);
      try {
        const expired = await fetch(`${later.baseUrl}/api/v1/sandbox/ping`, { headers: { 'x-api-key': created.key! } });
        expect(expired.status).toBe(200);
        expect(expired.headers.get('x-api-key-status')).toBe('invalid');
        expect((await storedInbox(later.dataDir, { sandbox: true })).map((entry) => entry.message)).toEqual([
          freshSandbox,
        ]);
        expect((await storedInbox(later.dataDir)).map((entry) => entry.message)).toEqual([oldLive]);
      } finally {
        await later.stop();
      }
    } finally {
      await short.stop();
    }
  });

  it('limits key creation per IP with KEYS_RATE_LIMIT', async () => {
    const limited = await startApi({ KEYS_RATE_LIMIT: '2/3600' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (
            await fetch(`${limited.baseUrl}/api/v1/keys`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
            })
          ).status,
        );
      expect(statuses).toEqual([201, 201, 429]);
    } finally {
      await limited.stop();
    }
  });

  it('counts key creation per client IP whatever key the caller holds', async () => {
    const limited = await startApi({ KEYS_RATE_LIMIT: '2/3600' });
    const create = (remoteAddress: string, headers: Record<string, string> = {}) =>
      limited.request({
        method: 'POST',
        path: '/api/v1/keys',
        remoteAddress,
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    try {
      const first = await create('192.0.2.10');
      expect(first.status).toBe(201);
      const { key } = JSON.parse(first.body.toString()) as { key: string };
      // The key selects the test tier, yet its holder shares the quota of its address.
      const withKey = await create('192.0.2.10', { 'x-api-key': key });
      expect(withKey.status).toBe(201);
      expect(withKey.headers['x-quota-tier']).toBe('test');
      expect(withKey.headers['ratelimit-remaining']).toBe('0');
      const refused = await create('192.0.2.10', { 'x-api-key': key });
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body.toString())).toMatchObject({ code: 'rate_limited' });
      expect((await create('192.0.2.11')).status).toBe(201);
    } finally {
      await limited.stop();
    }
  });
});

describe('POST /oauth/token (client credentials)', () => {
  it('issues a bearer token that acts like the key, with Basic or body credentials', async () => {
    const { body: key } = await createKey();
    const basic = Buffer.from(`${key.keyId}:${key.key}`).toString('base64');
    for (const [form, headers] of [
      [{ grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` }],
      [{ grant_type: 'client_credentials', client_id: key.keyId!, client_secret: key.key! }, {}],
    ] as const) {
      const response = await postToken(form, headers);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const token = (await response.json()) as {
        access_token: string;
        token_type: string;
        expires_in: number;
        scope: string;
      };
      expect(token.token_type).toBe('Bearer');
      expect(token.scope).toBe('test');
      expect(token.expires_in).toBeGreaterThan(0);
      expect(token.expires_in).toBeLessThanOrEqual(3600);
      const keyed = await ping({ authorization: `Bearer ${token.access_token}` });
      expect(keyed.body.sandbox).toBe(true);
      expect(keyed.response.headers.get('x-quota-tier')).toBe('test');
    }
  });

  it.each([
    [
      'a wrong secret',
      { grant_type: 'client_credentials', client_id: 'key_x', client_secret: `pk_test_${'B'.repeat(43)}` },
      401,
      'invalid_client',
    ],
    ['no credentials', { grant_type: 'client_credentials' }, 401, 'invalid_client'],
    ['another grant type', { grant_type: 'password', username: 'a', password: 'b' }, 400, 'unsupported_grant_type'],
    ['no grant type', { client_id: 'a' }, 400, 'invalid_request'],
    ['a scope', { grant_type: 'client_credentials', scope: 'admin' }, 400, 'invalid_scope'],
    ['a scope beside test', { grant_type: 'client_credentials', scope: 'test admin' }, 400, 'invalid_scope'],
  ])('answers %s with the RFC 6749 error', async (_label, form, status, error) => {
    const response = await postToken(form as Record<string, string>);
    expect(response.status).toBe(status);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe(error);
    expect(body.error_description.length).toBeGreaterThan(0);
    if (status === 401) expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
  });

  it.each(['test', ' test ', ''])('grants the one scope, test, when scope is %j', async (scope) => {
    const { body: key } = await createKey();
    const response = await postToken({
      grant_type: 'client_credentials',
      client_id: key.keyId!,
      client_secret: key.key!,
      scope,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { scope: string }).scope).toBe('test');
  });

  it('refuses a tampered token as an ignored key', async () => {
    const { body: key } = await createKey();
    const response = await postToken({
      grant_type: 'client_credentials',
      client_id: key.keyId!,
      client_secret: key.key!,
    });
    const { access_token: token } = (await response.json()) as { access_token: string };
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await ping({ authorization: `Bearer ${tampered}` })).response.headers.get('x-api-key-status')).toBe(
      'invalid',
    );
  });
});

describe('sandbox storage', () => {
  it('keeps at most SANDBOX_STORAGE_BYTES of sandbox messages per client and per test key, the newest; live messages stay', async () => {
    const bound = 65_536;
    const many = '100000/600';
    const limited = await startApi({
      SANDBOX_STORAGE_BYTES: String(bound),
      READ_RATE_LIMIT: many,
      CONTACT_RATE_LIMIT: many,
      KEYS_RATE_LIMIT: many,
      TEST_KEY_READ_RATE_LIMIT: many,
      TEST_KEY_CONTACT_RATE_LIMIT: many,
    });
    // A message near the longest allowed (5,000 characters): about 5 KB, so 13 fit in 64 KiB.
    const text = (label: string) => `${label} ${'x'.repeat(4_950)}`;
    const bytesOf = (message: string) =>
      Buffer.byteLength(VALID.name) + Buffer.byteLength(VALID.email) + Buffer.byteLength(message);
    /** The newest of `sent` (oldest first) that fit in the bound together, oldest first. */
    const newestFitting = (sent: string[]) => {
      const kept: string[] = [];
      let total = 0;
      for (const message of [...sent].reverse()) {
        if (total + bytesOf(message) > bound) break;
        total += bytesOf(message);
        kept.unshift(message);
      }
      return kept;
    };
    async function post(message: string, remoteAddress: string, headers: Record<string, string>) {
      const answer = await limited.request({
        method: 'POST',
        path: '/api/v1/contact',
        remoteAddress,
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
        body: JSON.stringify({ ...VALID, message }),
      });
      expect(answer.status, answer.body.toString()).toBe(200);
    }
    async function newKey(remoteAddress: string): Promise<string> {
      const answer = await limited.request({
        method: 'POST',
        path: '/api/v1/keys',
        remoteAddress,
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(answer.status).toBe(201);
      return (JSON.parse(answer.body.toString()) as { key: string }).key;
    }
    try {
      // One IP with ten test keys, three messages each: the client's share holds.
      const keys = await Promise.all(Array.from({ length: 10 }, () => newKey('192.0.2.1')));
      const byOneIp: string[] = [];
      for (const [index, key] of keys.entries())
        for (let n = 0; n < 3; n++) {
          byOneIp.push(text(`one-ip key ${index} #${n}`));
          await post(byOneIp.at(-1)!, '192.0.2.1', { 'x-api-key': key });
        }
      // One test key used from twenty IPs: the key's share holds.
      const shared = await newKey('192.0.2.2');
      const byOneKey: string[] = [];
      for (let n = 0; n < 20; n++) {
        byOneKey.push(text(`one-key #${n}`));
        await post(byOneKey.at(-1)!, `198.51.100.${n + 1}`, { authorization: `Bearer ${shared}` });
      }
      // No key, sandbox by header, from one IPv6 /64 through changing addresses; and live messages from it.
      const anonymous: string[] = [];
      const live: string[] = [];
      for (let n = 0; n < 20; n++) {
        anonymous.push(text(`anonymous #${n}`));
        await post(anonymous.at(-1)!, `2001:db8:1:2::${n + 1}`, { 'x-sandbox': 'true' });
        live.push(`live message #${n} ${randomUUID()}`);
        await post(live.at(-1)!, `2001:db8:1:2::${n + 1}`, {});
      }

      const sandbox = (await storedInbox(limited.dataDir, { sandbox: true })).map((entry) => entry.message).reverse();
      for (const [label, sent] of [
        ['one-ip', byOneIp],
        ['one-key', byOneKey],
        ['anonymous', anonymous],
      ] as const) {
        const kept = sandbox.filter((message) => message.startsWith(`${label} `));
        expect(kept, label).toEqual(newestFitting(sent));
        expect(kept.length, label).toBeLessThan(sent.length);
        expect(kept.reduce((total, message) => total + bytesOf(message), 0)).toBeLessThanOrEqual(bound);
      }
      // The running total each share is trimmed by matches what it keeps.
      const total = await queryState(
        limited.dataDir,
        'SELECT bytes FROM sandbox_shares WHERE owner = ?',
        'client:192.0.2.1',
      );
      expect(total[0]?.bytes).toBe(newestFitting(byOneIp).reduce((sum, message) => sum + bytesOf(message), 0));
      const stored = (await storedInbox(limited.dataDir)).map((entry) => entry.message);
      expect(stored.filter((message) => message.startsWith('live message')).sort()).toEqual([...live].sort());
    } finally {
      await limited.stop();
    }
  });
});
