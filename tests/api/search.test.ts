import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../functions/operations/operations.ts';
import { searchResponseSchema } from '../../functions/search/schema.ts';
import { SEARCH_TYPES } from '../../functions/search/search-types.ts';
import { errorSchema, listResponseSchema } from '../support/schemas.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { ROOT } from '../support/server.ts';

// Served under another address than the build's, to show that result URLs follow the running config.
const SITE_URL = 'https://search.example';
let server: InProcessApi;

beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '10000/60', SITE_URL });
});
afterAll(() => server.stop());

async function search(query: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}/api/search?${query}`, { headers });
  return { response, body: (await response.json()) as unknown };
}

async function expectError(query: string, code: string) {
  const { response, body } = await search(query);
  expect(response.status).toBe(400);
  const error = errorSchema.parse(body);
  expect(error.code).toBe(code);
  expect(error.requestId).toBe(response.headers.get('x-request-id'));
  return error;
}

/** The titles of the documentation pages in content/docs, read from their front matter. */
function docTitles(): string[] {
  const root = path.join(ROOT, 'content/docs');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) =>
      /^title:\s*(.+)$/m
        .exec(readFileSync(path.join(root, file), 'utf8'))?.[1]
        ?.trim()
        .replace(/^(['"])(.*)\1$/, '$2'),
    )
    .filter((title): title is string => title !== undefined);
}

describe('GET /api/search', () => {
  it('answers {query, total, results} with absolute URLs on the configured site', async () => {
    const { response, body } = await search('q=%20%20project%20');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const answer = searchResponseSchema.parse(body);
    expect(answer.query).toBe('project');
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results.length).toBeLessThanOrEqual(10);
    expect(answer.total).toBeGreaterThanOrEqual(answer.results.length);
    for (const result of answer.results) {
      expect(result.url.startsWith(`${SITE_URL}/`)).toBe(true);
      expect(result.snippet).not.toMatch(/[<>]/);
    }
    const scores = answer.results.map((result) => result.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('finds every project by its title, first', async () => {
    const { body } = await fetch(`${server.baseUrl}/api/v1/projects?limit=100`).then(async (r) => ({
      body: (await r.json()) as unknown,
    }));
    for (const project of listResponseSchema.parse(body).data) {
      const answer = searchResponseSchema.parse((await search(`q=${encodeURIComponent(project.title)}`)).body);
      expect(answer.results[0]).toMatchObject({
        type: 'project',
        title: project.title,
        url: `${SITE_URL}/projects/${project.slug}`,
      });
    }
  });

  it('finds documentation pages by their titles', async () => {
    const titles = docTitles();
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) {
      const answer = searchResponseSchema.parse(
        (await search(`q=${encodeURIComponent(title)}&type=doc&limit=50`)).body,
      );
      expect(answer.results.map((result) => result.title)).toContain(title);
    }
  });

  it('finds API operations by summary and by operationId, linking to the developer page', async () => {
    const bySummary = searchResponseSchema.parse(
      (await search(`q=${encodeURIComponent(OPERATIONS.getJobStatus.summary)}&type=operation`)).body,
    );
    expect(bySummary.results[0]).toMatchObject({ type: 'operation', url: `${SITE_URL}/developers#getJobStatus` });
    const byId = searchResponseSchema.parse((await search('q=sandboxPing')).body);
    expect(byId.results[0]).toMatchObject({ type: 'operation', title: OPERATIONS.sandboxPing.summary });
  });

  it('tolerates a prefix and a typo', async () => {
    for (const q of ['leakhou', 'leakhuond']) {
      const answer = searchResponseSchema.parse((await search(`q=${q}`)).body);
      expect(answer.results[0]?.url).toBe(`${SITE_URL}/projects/leakhound`);
    }
  });

  it.each(SEARCH_TYPES)('filters by type=%s', async (type) => {
    const answer = searchResponseSchema.parse((await search(`q=api&type=${type}&limit=50`)).body);
    expect(answer.results.every((result) => result.type === type)).toBe(true);
  });

  it('caps the results at limit while total counts every match', async () => {
    const all = searchResponseSchema.parse((await search('q=data&limit=50')).body);
    expect(all.total).toBeGreaterThan(3);
    const three = searchResponseSchema.parse((await search('q=data&limit=3')).body);
    expect(three.results).toEqual(all.results.slice(0, 3));
    expect(three.total).toBe(all.total);
  });

  it('answers an unknown word with no results', async () => {
    expect(searchResponseSchema.parse((await search('q=zzqxv')).body)).toEqual({
      query: 'zzqxv',
      total: 0,
      results: [],
    });
  });

  it('is cacheable: a strong ETag, and 304 when it still matches', async () => {
    const first = await search('q=rust');
    const etag = first.response.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.response.headers.get('cache-control')).toMatch(/^private, max-age=\d+/);
    const again = await fetch(`${server.baseUrl}/api/search?q=rust`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('accepts the common sandbox parameter', async () => {
    const { response } = await search('q=rust&sandbox=true');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-sandbox')).toBe('true');
  });

  it.each(['', 'q=', 'q=%20%20%20', `q=${'x'.repeat(201)}`])(
    'refuses %j with invalid_parameter and a hint about q',
    async (query) => {
      const error = await expectError(query, 'invalid_parameter');
      expect(error.message).toContain('"q"');
      expect(error.hint).toContain('1 to 200 characters');
    },
  );

  it('accepts 200 characters once the spaces around them are trimmed', async () => {
    const { response } = await search(`q=${encodeURIComponent(`  ${'x'.repeat(200)}  `)}`);
    expect(response.status).toBe(200);
  });

  it('refuses an unknown type, listing the allowed ones', async () => {
    const error = await expectError('q=rust&type=page', 'invalid_parameter');
    expect(error.message).toContain(SEARCH_TYPES.join(', '));
  });

  it.each(['0', '51', 'ten', ''])('refuses limit=%j', async (limit) => {
    const error = await expectError(`q=rust&limit=${limit}`, 'invalid_parameter');
    expect(error.hint).toContain('limit=1..50');
  });

  it('refuses unknown and repeated parameters', async () => {
    expect((await expectError('q=rust&page=2', 'unknown_parameter')).message).toContain('"page"');
    await expectError('q=rust&q=go', 'invalid_parameter');
  });
});

describe('search rate limit', () => {
  it('counts against the read quota and answers 429 with Retry-After when it is used up', async () => {
    const limited = await startApi({ READ_RATE_LIMIT: '2/60' });
    try {
      const first = await fetch(`${limited.baseUrl}/api/search?q=rust`);
      expect(first.status).toBe(200);
      expect(first.headers.get('ratelimit-limit')).toBe('2');
      expect(first.headers.get('ratelimit-remaining')).toBe('1');
      expect((await fetch(`${limited.baseUrl}/api/v1/projects`)).status).toBe(200);
      const refused = await fetch(`${limited.baseUrl}/api/search?q=rust`);
      expect(refused.status).toBe(429);
      expect(errorSchema.parse(await refused.json()).code).toBe('rate_limited');
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    } finally {
      await limited.stop();
    }
  });
});

describe('/search without JavaScript', () => {
  async function page(query: string) {
    const response = await fetch(`${server.baseUrl}/search${query}`);
    return { response, html: await response.text() };
  }

  it('serves the empty form without a query', async () => {
    const { response, html } = await page('');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('<form class="search-form" role="search" method="get" action="/search"');
    expect(html).toContain('<ol id="search-results" class="search-results" aria-label="Results"></ol>');
    expect(html).not.toContain('{{');
  });

  it('renders the results of a plain GET form submission', async () => {
    const { response, html } = await page('?q=leakhound&type=');
    expect(response.status).toBe(200);
    expect(html).toContain('value="leakhound"');
    expect(html).toContain('<a href="/projects/leakhound">Leakhound</a>');
    expect(html).toMatch(/role="status" aria-live="polite">1 result for “leakhound”\.</);
  });

  it('honours the type filter and keeps it selected', async () => {
    const { html } = await page('?q=sandbox&type=operation');
    expect(html).toContain('<option value="operation" selected>');
    const links = [...html.matchAll(/<li class="search-result"><h2><a href="([^"]+)"/g)].map((match) => match[1]);
    expect(links.length).toBeGreaterThan(0);
    expect(links.every((link) => link?.startsWith('/developers#'))).toBe(true);
  });

  it('escapes the query everywhere it appears', async () => {
    const { response, html } = await page(`?q=${encodeURIComponent('<script>alert(1)</script> "rust"')}`);
    expect(response.status).toBe(200);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('"rust"');
    expect(html).toContain('value="&#60;script&#62;alert(1)&#60;/script&#62; &#34;rust&#34;"');
    expect(html).toContain('for “&#60;script&#62;alert(1)&#60;/script&#62; &#34;rust&#34;”');
    expect(html).not.toContain('{{');
  });

  it('answers a too long query with 400 and a message on the page', async () => {
    const { response, html } = await page(`?q=${'x'.repeat(201)}`);
    expect(response.status).toBe(400);
    expect(html).toContain('at most 200 characters');
  });
});
