import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmsTxtPointer } from '../../functions/site/llms-txt-pointer.ts';
import { startService, type InProcessService } from '../support/service.ts';
import { sitemapPaths } from '../support/sitemap.ts';

/** The server runs with the SITE_URL it was built with, so absolute links resolve to it. */
const SITE = 'http://localhost:4321';
const POINTER = llmsTxtPointer(SITE);
const MARKDOWN = 'text/markdown; charset=utf-8';
/** A Cache-Control that no shared cache may store under (RFC 9111 sections 5.2.2.5 and 5.2.2.7). */
const KEPT_FROM_SHARED_CACHES = /(^|,)\s*(private|no-store)\s*(,|$)/;
let server: InProcessService;

beforeAll(async () => {
  server = await startService({ READ_RATE_LIMIT: '100000/60' });
});
afterAll(() => server.stop());

/** A site URL (or a path) fetched from the test server. */
function local(url: string): string {
  return url.startsWith(SITE) ? `${server.baseUrl}${url.slice(SITE.length)}` : `${server.baseUrl}${url}`;
}

async function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(local(url), { headers, method });
  return { response, body: await response.text() };
}

/** Link targets of a Markdown document. */
function markdownLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

/** The page a Markdown twin belongs to: `/index.md` -> `/`, `/x.md` -> `/x`. */
function pageOf(twin: string): string {
  const path = new URL(twin).pathname;
  return path === '/index.md' ? '/' : path.slice(0, -'.md'.length);
}

/** The twin a page advertises in its head and in its Link header (RFC 8288). */
function advertisedTwins(html: string, link: string | null): { head?: string; header?: string } {
  const head = /<link rel="alternate" type="text\/markdown" href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  const header = /<([^>]+)>; rel="alternate"; type="text\/markdown"/.exec(link ?? '')?.[1];
  return { head, header };
}

/** Whether a Markdown document has an anchor with this id: an `<a id>` or a heading whose slug it is. */
function hasAnchor(markdown: string, id: string): boolean {
  if (markdown.includes(`id="${id}"`)) return true;
  const slug = (heading: string) =>
    heading
      .toLowerCase()
      .replace(/[^a-z0-9 -]/g, '')
      .replace(/ /g, '-');
  return [...markdown.matchAll(/^#{1,6} (.+)$/gm)].some((match) => slug(match[1]!) === id);
}

describe('walking the sitemap and llms.txt', () => {
  it('finds for every page a twin advertised in the head and the Link header, answering as Markdown, and the llms.txt pointer in both', async () => {
    const llms = (await get('/llms.txt')).body;
    const home = (await get('/index.md')).body;
    const twinsInLlms = markdownLinks(llms).filter((url) => /\.md(#|$)/.test(url));
    // Technology pages are reached from the home page's twin rather than listed in llms.txt.
    const facetTwins = markdownLinks(home).filter((url) => /\/(domains|stack)\/[^/]+\.md$/.test(url));
    const pages = new Set([
      ...(await sitemapPaths(server.baseUrl)),
      ...[...twinsInLlms, ...facetTwins].map(pageOf),
      '/search?q=rust',
      '/contact/thanks',
    ]);
    expect(pages.size).toBeGreaterThan(60);

    const failures: string[] = [];
    for (const page of pages) {
      const { response, body } = await get(page);
      if (response.status !== 200) failures.push(`${page}: ${response.status}`);
      const { head, header } = advertisedTwins(body, response.headers.get('link'));
      if (head === undefined || head !== header) failures.push(`${page}: head ${head}, Link header ${header}`);
      if (!body.includes(`<p class="visually-hidden">${POINTER}</p>`)) failures.push(`${page}: no pointer in the HTML`);
      if (head === undefined) continue;
      const twin = await get(head);
      if (twin.response.status !== 200 || twin.response.headers.get('content-type') !== MARKDOWN)
        failures.push(
          `${page}: twin ${head} answers ${twin.response.status} ${twin.response.headers.get('content-type')}`,
        );
      // Near the top: the blockquote right after the title.
      if (!twin.body.split('\n').slice(0, 4).includes(`> ${POINTER}`))
        failures.push(`${head}: no pointer near the top`);
      const relative = markdownLinks(twin.body).filter((url) => !/^[a-z][a-z0-9+.-]*:/i.test(url));
      if (relative.length > 0) failures.push(`${head}: relative links ${relative.join(', ')}`);
      const negotiated = await get(page, { accept: 'text/markdown' });
      if (negotiated.response.headers.get('content-type') !== MARKDOWN || negotiated.body !== twin.body)
        failures.push(`${page}: Accept: text/markdown does not give ${head}`);
      const caching = negotiated.response.headers.get('cache-control') ?? '';
      if (!KEPT_FROM_SHARED_CACHES.test(caching)) failures.push(`${page}: the Markdown at its URL is ${caching}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('keeps the Markdown a page’s URL negotiates out of shared caches; the twin’s own URL and the HTML keep theirs', async () => {
    for (const [page, twin] of [
      ['/', '/index.md'],
      ['/projects/leakhound', '/projects/leakhound.md'],
    ] as const) {
      const markdown = (await get(page, { accept: 'text/markdown' })).response;
      expect(markdown.headers.get('content-type')).toBe(MARKDOWN);
      expect(markdown.headers.get('cache-control'), page).toBe('private, max-age=300');
      expect(markdown.headers.get('vary')).toContain('Accept');
      // Revalidated, it says the same (RFC 9110 section 15.4.5: a 304 repeats Cache-Control).
      const etag = markdown.headers.get('etag')!;
      const again = await fetch(local(page), { headers: { accept: 'text/markdown', 'if-none-match': etag } });
      expect([again.status, again.headers.get('cache-control')]).toEqual([304, 'private, max-age=300']);

      const atTwin = (await get(twin)).response;
      expect(atTwin.headers.get('etag')).toBe(etag);
      expect(atTwin.headers.get('cache-control'), twin).toBe('public, max-age=300, stale-while-revalidate=3600');
      const html = (await get(page, { accept: 'text/html' })).response;
      expect(html.headers.get('cache-control'), page).toBe('public, max-age=0, must-revalidate');
    }
  });

  it('links from llms.txt only Markdown that answers, with the anchors it names', async () => {
    const llms = (await get('/llms.txt')).body;
    const twins = markdownLinks(llms).filter((url) => /\.md(#|$)/.test(url));
    expect(twins).toContain(`${SITE}/developers.md#createContact`);
    expect(twins).toContain(`${SITE}/index.md`);
    expect(twins).toContain(`${SITE}/domains/web.md`);
    expect(llms).not.toMatch(/\/developers#/);
    for (const url of twins) {
      const [address, anchor] = url.split('#');
      const { response, body } = await get(address!);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toBe(MARKDOWN);
      if (anchor !== undefined) expect(hasAnchor(body, anchor), url).toBe(true);
    }
  });

  it('keeps the machine documents in a section of their own', async () => {
    const llms = (await get('/llms.txt')).body;
    const section = llms.split('\n## ').find((part) => part.startsWith('Machine-readable documents'))!;
    for (const path of ['/openapi.json', '/openapi.yaml', '/.well-known/api-catalog', '/portfolio.json', '/docs.json'])
      expect(section).toContain(`](${SITE}${path})`);
    const elsewhere = llms.replace(section, '');
    expect(elsewhere).not.toMatch(/\/(openapi\.(json|yaml)|portfolio\.json|docs\.json)\)/);
  });
});

describe('the search page as Markdown', () => {
  it('lists the same results as the HTML page, at /search.md?q= and by Accept', async () => {
    const api = (await (await fetch(`${server.baseUrl}/api/search?q=rust&limit=20`)).json()) as {
      total: number;
      results: { title: string; url: string }[];
    };
    expect(api.results.length).toBeGreaterThan(0);
    const markdown = await get('/search.md?q=rust');
    expect(markdown.response.status).toBe(200);
    expect(markdown.response.headers.get('content-type')).toBe(MARKDOWN);
    const html = (await get('/search?q=rust')).body;
    for (const result of api.results) {
      expect(markdown.body).toContain(`[${result.title}](`);
      expect(html).toContain(`>${result.title}</a>`);
    }
    expect(markdown.body).toContain(`${api.total} results for “rust”`);
    const negotiated = await get('/search?q=rust', { accept: 'text/markdown' });
    expect(negotiated.body).toBe(markdown.body);
    expect(negotiated.response.headers.get('vary')).toContain('Accept');
  });

  it('says how to search when there is no query, and keeps the 400 of a query too long', async () => {
    const empty = await get('/search.md');
    expect(empty.response.status).toBe(200);
    expect(empty.body).toContain(`${SITE}/search.md?q=`);
    const tooLong = await get(`/search.md?q=${'x'.repeat(201)}`);
    expect(tooLong.response.status).toBe(400);
    expect(tooLong.response.headers.get('content-type')).toBe(MARKDOWN);
    expect(tooLong.body).toContain('at most 200 characters');
  });
});

describe('the 404 page as Markdown', () => {
  it('answers a missing path asked as Markdown with the 404 in Markdown, status 404', async () => {
    for (const [path, headers] of [
      ['/no-such-page', { accept: 'text/markdown' }],
      ['/no-such-page.md', {}],
    ] as const) {
      const { response, body } = await get(path, headers);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toBe(MARKDOWN);
      expect(body, path).toMatch(/^# Page not found\n\n> /);
      expect(body).toContain(`> ${POINTER}`);
    }
    const html = await get('/no-such-page');
    expect(html.response.status).toBe(404);
    expect(html.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.response.headers.get('vary')).toContain('Accept');
    expect(advertisedTwins(html.body, html.response.headers.get('link'))).toEqual({
      head: `${SITE}/404.md`,
      header: `${SITE}/404.md`,
    });
  });
});

describe('the contact page as Markdown', () => {
  it('says how to send a message through the API, and takes no posts', async () => {
    const { response, body } = await get('/contact.md');
    expect(response.status).toBe(200);
    expect(body).toContain(`POST ${SITE}/api/v1/contact`);
    expect(body).toContain(`${SITE}/developers.md#createContact`);
    expect((await get('/contact.md', {}, 'POST')).response.status).toBe(405);
  });
});
