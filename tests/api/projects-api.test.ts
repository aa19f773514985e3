import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSchema } from '../../functions/projects/schema.ts';
import { errorSchema, listResponseSchema, problemSchema } from '../support/schemas.ts';
import { startApi, type InProcessApi } from '../support/api.ts';

let server: InProcessApi;

beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '10000/60' });
});
afterAll(() => server.stop());

async function getJson(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, { headers });
  return { response, body: (await response.json()) as unknown };
}

async function expectError(path: string, status: number, code: string, headers: Record<string, string> = {}) {
  const { response, body } = await getJson(path, headers);
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const error = errorSchema.parse(body);
  expect(error.code).toBe(code);
  expect(error.requestId).toBe(response.headers.get('x-request-id'));
  return error;
}

async function allPages(query: string, limit: number): Promise<string[]> {
  const slugs: string[] = [];
  let cursor: string | null = null;
  do {
    const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const { body } = await getJson(`/api/v1/projects?limit=${limit}${query}${suffix}`);
    const page = listResponseSchema.parse(body);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    expect(page.pagination.hasMore).toBe(page.pagination.nextCursor !== null);
    slugs.push(...page.data.map((project) => project.slug));
    cursor = page.pagination.nextCursor;
  } while (cursor !== null);
  return slugs;
}

describe('GET /api/v1/projects', () => {
  it('returns the first 20 of 19 projects with the documented shape', async () => {
    const { response, body } = await getJson('/api/v1/projects');
    expect(response.status).toBe(200);
    const page = listResponseSchema.parse(body);
    expect(page.data).toHaveLength(19);
    expect(page.pagination).toEqual({ nextCursor: null, hasMore: false, limit: 20 });
  });

  it.each([1, 2, 5, 7, 18, 19, 100])(
    'with limit=%i, lists each project exactly once in a stable order',
    async (limit) => {
      const slugs = await allPages('', limit);
      expect(slugs).toHaveLength(19);
      expect(new Set(slugs).size).toBe(19);
      expect(slugs).toEqual(await allPages('', 19));
    },
  );

  it.each(['0', '101', 'abc', '1.5', '-3', ''])(
    'refuses limit=%j with invalid_parameter naming the range',
    async (limit) => {
      const error = await expectError(`/api/v1/projects?limit=${limit}`, 400, 'invalid_parameter');
      expect(error.hint).toContain('limit=1..100');
    },
  );

  it('refuses a repeated limit', async () => {
    await expectError('/api/v1/projects?limit=2&limit=3', 400, 'invalid_parameter');
  });

  it('names unknown query parameters', async () => {
    const error = await expectError('/api/v1/projects?limit=2&color=red&page=2', 400, 'unknown_parameter');
    expect(error.message).toContain('"color"');
    expect(error.message).toContain('"page"');
  });

  it('filters by domain and stack, case-insensitively, across pages', async () => {
    const { body } = await getJson('/api/v1/projects?domain=WEB&limit=100');
    const web = listResponseSchema.parse(body).data;
    expect(web.length).toBeGreaterThan(1);
    expect(web.every((project) => project.domain === 'web')).toBe(true);
    expect(await allPages('&domain=Web', 1)).toEqual(web.map((project) => project.slug));

    const { body: pg } = await getJson('/api/v1/projects?stack=postgresql&limit=100');
    const withPostgres = listResponseSchema.parse(pg).data;
    expect(withPostgres.length).toBeGreaterThan(1);
    expect(withPostgres.every((project) => project.stack.includes('PostgreSQL'))).toBe(true);

    const { body: none } = await getJson('/api/v1/projects?domain=no-such-domain');
    expect(listResponseSchema.parse(none)).toEqual({
      data: [],
      pagination: { nextCursor: null, hasMore: false, limit: 20 },
    });
  });

  it('remembers the filter in the cursor and refuses a cursor used with another filter', async () => {
    const { body } = await getJson('/api/v1/projects?domain=web&limit=1');
    const cursor = listResponseSchema.parse(body).pagination.nextCursor;
    expect(cursor).not.toBeNull();
    const { body: next } = await getJson(`/api/v1/projects?limit=1&cursor=${encodeURIComponent(cursor!)}`);
    expect(listResponseSchema.parse(next).data[0]?.domain).toBe('web');
    await getJson(`/api/v1/projects?limit=1&domain=Web&cursor=${encodeURIComponent(cursor!)}`).then(({ response }) =>
      expect(response.status).toBe(200),
    );
    await expectError(`/api/v1/projects?domain=data&cursor=${encodeURIComponent(cursor!)}`, 400, 'invalid_cursor');
  });

  it('refuses forged, truncated, oversized and foreign cursors', async () => {
    const { body } = await getJson('/api/v1/projects?limit=2');
    const cursor = listResponseSchema.parse(body).pagination.nextCursor!;
    const [payload, tag] = cursor.split('.') as [string, string];
    const forged = `${Buffer.from(JSON.stringify({ a: 'x', d: null, s: null })).toString('base64url')}.${tag}`;
    for (const bad of [forged, `${payload}.`, cursor.slice(0, -4), 'A'.repeat(5000), 'hello', `${cursor}x`]) {
      await expectError(`/api/v1/projects?cursor=${encodeURIComponent(bad)}`, 400, 'invalid_cursor');
    }
    const other = await startApi();
    try {
      const response = await fetch(`${other.baseUrl}/api/v1/projects?cursor=${encodeURIComponent(cursor)}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('invalid_cursor');
    } finally {
      await other.stop();
    }
  });

  it('keeps cursors valid across a restart with the same data directory', async () => {
    const first = await startApi();
    const { body } = await fetch(`${first.baseUrl}/api/v1/projects?limit=3`).then(async (r) => ({
      body: await r.json(),
    }));
    const cursor = listResponseSchema.parse(body).pagination.nextCursor!;
    await first.stop();
    const second = await startApi({}, first.dataDir);
    try {
      const response = await fetch(`${second.baseUrl}/api/v1/projects?limit=3&cursor=${encodeURIComponent(cursor)}`);
      expect(response.status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  it('answers a page asked again by the same query as the first time, and refuses an altered cursor after a valid one', async () => {
    const first = listResponseSchema.parse((await getJson('/api/v1/projects?limit=4')).body);
    const cursor = first.pagination.nextCursor!;
    const path = `/api/v1/projects?limit=4&cursor=${encodeURIComponent(cursor)}`;
    const answers = [];
    for (let n = 0; n < 3; n++) {
      const response = await fetch(`${server.baseUrl}${path}`);
      answers.push({ status: response.status, etag: response.headers.get('etag'), body: await response.text() });
    }
    expect(answers[0]!.status).toBe(200);
    expect(answers.slice(1)).toEqual([answers[0], answers[0]]);
    expect(listResponseSchema.parse(JSON.parse(answers[0]!.body)).data[0]!.slug).not.toBe(first.data[0]!.slug);
    // Kept by the whole query string: a cursor one character off, or another limit, is its own request.
    // The first character: every bit of it is data (the last one of the tag carries unused bits).
    const altered = (cursor.startsWith('A') ? 'B' : 'A') + cursor.slice(1);
    for (let n = 0; n < 2; n++)
      await expectError(`/api/v1/projects?limit=4&cursor=${encodeURIComponent(altered)}`, 400, 'invalid_cursor');
    const other = listResponseSchema.parse(
      (await getJson(`/api/v1/projects?limit=3&cursor=${encodeURIComponent(cursor)}`)).body,
    );
    expect(other.data).toHaveLength(3);
    const revalidated = await fetch(`${server.baseUrl}${path}`, { headers: { 'if-none-match': answers[0]!.etag! } });
    expect(revalidated.status).toBe(304);
    // A query too long to be kept (empty segments) is answered afresh, the same page each time.
    for (let n = 0; n < 2; n++) {
      const long = await fetch(`${server.baseUrl}${path}${'&'.repeat(2000)}`);
      expect(await long.text()).toBe(answers[0]!.body);
    }
  });

  it('sends a strong ETag and answers If-None-Match with an empty 304', async () => {
    const first = await fetch(`${server.baseUrl}/api/v1/projects?limit=3`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    // Private: the answer carries this caller's quota, which a shared cache must not pass on.
    expect(first.headers.get('cache-control')).toMatch(/^private, max-age=\d+/);
    expect(first.headers.get('vary')).toBe('Authorization, X-API-Key, X-Sandbox');
    const second = await fetch(`${server.baseUrl}/api/v1/projects?limit=3`, { headers: { 'if-none-match': etag! } });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe('');
    expect(second.headers.get('etag')).toBe(etag);
    expect(second.headers.get('ratelimit-limit')).toBe('10000');
    const other = await fetch(`${server.baseUrl}/api/v1/projects?limit=4`, { headers: { 'if-none-match': etag! } });
    expect(other.status).toBe(200);
  });

  it('serves X-API-Version v1 or absent, and refuses any other version', async () => {
    expect((await fetch(`${server.baseUrl}/api/v1/projects`, { headers: { 'x-api-version': 'v1' } })).status).toBe(200);
    for (const version of ['v2', 'V1', '1', '']) {
      if (version === '') continue;
      await expectError('/api/v1/projects', 400, 'unsupported_api_version', { 'x-api-version': version });
    }
  });
});

describe('GET /api/v1/projects/{slug}', () => {
  it('returns the same object the list returns', async () => {
    const { body } = await getJson('/api/v1/projects?limit=100');
    for (const listed of listResponseSchema.parse(body).data) {
      const { response, body: single } = await getJson(`/api/v1/projects/${listed.slug}`);
      expect(response.status).toBe(200);
      expect(projectSchema.strict().parse(single)).toEqual(listed);
    }
  });

  it('answers an unknown slug with an RFC 9457 problem document', async () => {
    const { response, body } = await getJson('/api/v1/projects/no-such-project');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    const problem = problemSchema.parse(body);
    expect(problem).toMatchObject({
      status: 404,
      code: 'project_not_found',
      instance: '/api/v1/projects/no-such-project',
    });
    expect(problem.requestId).toBe(response.headers.get('x-request-id'));
  });

  it.each([
    '%2Fetc%2Fpasswd',
    '..%2F..%2Fpackage.json',
    '%00',
    'a'.repeat(300),
    '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
    '%E0%A4%A',
    '..',
    '%252e%252e',
  ])('answers an odd slug %j with a 4xx that does not echo it', async (slug) => {
    const response = await fetch(`${server.baseUrl}/api/v1/projects/${slug}`);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const text = await response.text();
    expect(text).not.toContain('<script');
    expect(text).not.toContain('a'.repeat(300));
  });
});

describe('read quota', () => {
  it('counts per client IP with integer headers, then answers 429 with Retry-After', async () => {
    const limited = await startApi({ READ_RATE_LIMIT: '3/120' });
    try {
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${limited.baseUrl}/api/v1/projects${i === 1 ? '?limit=0' : ''}`);
        expect(response.headers.get('ratelimit-limit')).toBe('3');
        expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
        expect(Number(response.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(120);
        remaining.push(response.headers.get('ratelimit-remaining')!);
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const refused = await fetch(`${limited.baseUrl}/api/v1/projects`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(errorSchema.parse(await refused.json()).code).toBe('rate_limited');
    } finally {
      await limited.stop();
    }
  });
});
