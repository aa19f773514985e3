import { describe, expect, it } from 'vitest';
import { RequestContexts } from '../../functions/http/request-context.ts';
import type { ApiRequest } from '../../functions/http/types.ts';
import { MemoryLimiter } from '../../functions/limits/rate-limiter.ts';
import { SearchIndex } from '../../functions/search/search-index.ts';
import { searchPageHandler } from '../../functions/search/search-page-handler.ts';
import { SEARCH_PAGE_SLOTS as slot, SearchPage } from '../../functions/search/search-page.ts';
import { resultSummary } from '../../functions/search/search-types.ts';

const template = `<input value="${slot.query}"><select>${slot.options}</select><p>${slot.status}</p><ol>${slot.results}</ol>`;

const index = SearchIndex.build([
  {
    id: 'a',
    type: 'project',
    title: 'Script <runner>',
    url: '/projects/a',
    headings: [],
    tags: [],
    text: 'Runs "scripts" & more.',
  },
  { id: 'b', type: 'doc', title: 'Guide', url: '/guide', headings: [], tags: [], text: 'A script guide.' },
]);

function request(query: string, method = 'GET'): ApiRequest {
  return {
    method,
    path: '/search',
    query: new URLSearchParams(query),
    headers: {},
    clientIp: '192.0.2.1',
    requestId: 'test',
    readBody: () => Promise.reject(new Error('no body')),
  };
}

describe('SearchPage', () => {
  it('fills every slot, escaping the query and the results', () => {
    const hits = index.search('script', { limit: 10 }).hits;
    const html = new SearchPage(template).render({
      query: '"><script>alert(1)</script>',
      type: 'doc',
      status: 'Found <2>',
      hits,
    });
    expect(html).not.toContain('{{');
    expect(html).not.toContain('<script>');
    expect(html).toContain('value="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"');
    expect(html).toContain('<option value="doc" selected>Documentation</option>');
    expect(html).toContain('<option value="">Everything</option>');
    expect(html).toContain('<p>Found &#60;2&#62;</p>');
    expect(html).toContain('<a href="/projects/a">Script &#60;runner&#62;</a>');
    expect(html).toContain('Runs &#34;scripts&#34; &#38; more.');
  });

  it('does not look for slots inside what it inserted', () => {
    const html = new SearchPage(template).render({ query: slot.results });
    expect(html).toContain(`value="${slot.results}"`);
  });
});

describe('searchPageHandler', () => {
  /** The page with every quota counted on one limiter of `limit` requests, as a visitor's context charges it. */
  const handler = (limit = 100) => {
    const limiter = new MemoryLimiter({ count: limit, seconds: 60 }, 100);
    const contexts = new RequestContexts(() => Promise.resolve(null), {
      account: (holder) => ({ limiter, key: holder.quotaKey }),
      refund: (holder, _quota, units) => limiter.refund(holder.quotaKey, units),
    });
    const page = searchPageHandler(index, new SearchPage(template), {
      siteUrl: 'https://example.test',
      apiOrigin: null,
    });
    return (search: ApiRequest) => page(search, contexts.visitor(search));
  };

  it('renders the empty form without a query', async () => {
    const response = await handler()(request(''));
    expect(response.status).toBe(200);
    expect(response.body).toContain('<ol></ol>');
    expect(response.body).toContain('<option value="" selected>Everything</option>');
  });

  it('renders the results and their count for a query, honouring a known type', async () => {
    const all = await handler()(request('q=script'));
    expect(all.status).toBe(200);
    expect(all.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(all.body).toContain(resultSummary('script', 2, 2));
    const docs = await handler()(request('q=script&type=doc'));
    expect(docs.body).toContain(resultSummary('script', 1, 1));
    expect(docs.body).toContain('href="/guide"');
    const unknownType = await handler()(request('q=script&type=nonsense'));
    expect(unknownType.body).toContain(resultSummary('script', 2, 2));
  });

  it('answers 400 for a query that is too long, keeping what was typed', async () => {
    const response = await handler()(request(`q=${'x'.repeat(201)}`));
    expect(response.status).toBe(400);
    expect(response.body).toContain('at most 200 characters');
  });

  it('answers 429 with Retry-After once the read quota is used up', async () => {
    const limited = handler(1);
    expect((await limited(request('q=script'))).status).toBe(200);
    const response = await limited(request('q=script'));
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toMatch(/^\d+$/);
    expect(response.body).toContain('Too many searches');
  });

  it('refuses other methods', async () => {
    expect((await handler()(request('q=x', 'POST'))).status).toBe(405);
  });
});
