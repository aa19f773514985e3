import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupFor, isAllowed, parseRobots, type RobotsGroup } from '../support/robots.ts';
import { startService, type InProcessService } from '../support/service.ts';
import { readSitemap, SITE, type SitemapEntry } from '../support/sitemap.ts';

/**
 * The sitemap against what a crawler finds: starting at `/`, every same-origin link of every HTML
 * page is followed, and each page that may be indexed must be listed, and each listed URL must be
 * such a page.
 */

/** What a crawler learns from one URL. */
interface Fetched {
  /** Why the page may not be indexed, if it may not. */
  notIndexable: string | undefined;
}

let server: InProcessService;
let robots: RobotsGroup;
let crawled: Map<string, Fetched>;
let listed: SitemapEntry[];

/** `rel` values of `<link>` that name another page of the site for people (RFC 8288 section 2.1.1). */
const PAGE_RELATIONS = new Set(['alternate', 'canonical', 'next', 'prev', 'first', 'last', 'up', 'index']);

function decodeAttribute(value: string): string {
  return value.replace(/&(amp|quot|lt|gt|#39|#x27);/g, (_, name: string) => {
    return { amp: '&', quot: '"', lt: '<', gt: '>', '#39': "'", '#x27': "'" }[name]!;
  });
}

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of tag.matchAll(/\s([a-zA-Z:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    found.set(match[1]!.toLowerCase(), decodeAttribute(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return found;
}

/**
 * The hrefs a crawler follows from a page: every `<a href>`, and `<link href>` whose relation names
 * a page and whose type, if given, is HTML (a Markdown twin or a JSON document is not a page).
 */
function pageLinks(html: string): string[] {
  const links: string[] = [];
  for (const match of html.matchAll(/<(a|link)\s[^>]*>/gi)) {
    const tag = attributes(match[0]);
    const href = tag.get('href');
    if (href === undefined) continue;
    if (match[1]!.toLowerCase() === 'link') {
      const relations = (tag.get('rel') ?? '').toLowerCase().split(/\s+/);
      const type = tag.get('type');
      if (!relations.some((rel) => PAGE_RELATIONS.has(rel))) continue;
      if (type !== undefined && !/^text\/html\b/i.test(type)) continue;
    }
    links.push(href);
  }
  return links;
}

/** A same-origin URL as the key a crawler keeps: path and query, without the fragment. */
function sitePath(href: string, from: string): string | undefined {
  const url = new URL(href, `${SITE}${from}`);
  if (url.origin !== SITE) return undefined;
  return `${url.pathname}${url.search}`;
}

/**
 * Fetches one URL and decides whether it may be indexed: an HTML 200 that robots.txt allows, with no
 * `noindex` in a robots meta tag or X-Robots-Tag, whose canonical URL (if it names one) is itself.
 */
async function fetchPage(path: string): Promise<{ fetched: Fetched; links: string[] }> {
  const response = await fetch(`${server.baseUrl}${path}`, { redirect: 'manual', headers: { accept: 'text/html' } });
  const html = /^text\/html\b/i.test(response.headers.get('content-type') ?? '');
  const body = html ? await response.text() : (await response.body?.cancel(), '');
  const robotsMeta = [...body.matchAll(/<meta\s[^>]*>/gi)]
    .map((match) => attributes(match[0]))
    .filter((tag) => /^(robots|googlebot)$/i.test(tag.get('name') ?? ''))
    .map((tag) => tag.get('content') ?? '');
  const canonicalHref = [...body.matchAll(/<link\s[^>]*>/gi)]
    .map((match) => attributes(match[0]))
    .find((tag) => (tag.get('rel') ?? '').toLowerCase().split(/\s+/).includes('canonical'))
    ?.get('href');
  const canonical = canonicalHref === undefined ? path : sitePath(canonicalHref, path);
  let notIndexable: string | undefined;
  if (response.status !== 200) notIndexable = `answers ${response.status}`;
  else if (!html) notIndexable = `is ${response.headers.get('content-type')}`;
  else if (!isAllowed(robots, new URL(path, SITE).pathname)) notIndexable = 'is disallowed by robots.txt';
  else if (/noindex|none/i.test([...robotsMeta, response.headers.get('x-robots-tag') ?? ''].join(',')))
    notIndexable = 'says noindex';
  else if (canonical !== path) notIndexable = `names ${canonicalHref} as its canonical URL`;
  return { fetched: { notIndexable }, links: html ? pageLinks(body) : [] };
}

/** Breadth-first from `/` over every same-origin link, each URL fetched once. */
async function crawl(): Promise<Map<string, Fetched>> {
  const seen = new Map<string, Fetched>();
  const queue = ['/'];
  const queued = new Set(queue);
  while (queue.length > 0) {
    const path = queue.shift()!;
    const { fetched, links } = await fetchPage(path);
    seen.set(path, fetched);
    for (const href of links) {
      const next = sitePath(href, path);
      if (next === undefined || queued.has(next)) continue;
      queued.add(next);
      queue.push(next);
    }
  }
  return seen;
}

function indexablePaths(pages: Map<string, Fetched>): string[] {
  return [...pages].filter(([, page]) => page.notIndexable === undefined).map(([path]) => path);
}

function listedPath(loc: string): string {
  const url = new URL(loc);
  return `${url.pathname}${url.search}`;
}

beforeAll(async () => {
  server = await startService({ READ_RATE_LIMIT: '100000/60' });
  robots = groupFor(parseRobots(await (await fetch(`${server.baseUrl}/robots.txt`)).text()), '*');
  [crawled, listed] = await Promise.all([crawl(), readSitemap(server.baseUrl)]);
});
afterAll(() => server?.stop());

describe('the sitemap against a crawl from the home page', () => {
  it('reaches every project, domain and technology page, the search and the contact page', async () => {
    const projects = (await (await fetch(`${server.baseUrl}/api/v1/projects?limit=100`)).json()) as {
      data: { slug: string; domain: string; stack: string[] }[];
    };
    const indexable = indexablePaths(crawled);
    const count = (prefix: string) => indexable.filter((path) => path.startsWith(prefix)).length;
    expect(count('/projects/')).toBe(projects.data.length);
    expect(count('/domains/')).toBe(new Set(projects.data.map((project) => project.domain)).size);
    expect(count('/stack/')).toBe(new Set(projects.data.flatMap((project) => project.stack)).size);
    expect(indexable).toEqual(expect.arrayContaining(['/', '/search', '/contact', '/developers']));
  });

  it('lists every indexable page the crawl found', () => {
    const inSitemap = new Set(listed.map(({ loc }) => listedPath(loc)));
    expect(indexablePaths(crawled).filter((path) => !inSitemap.has(path))).toEqual([]);
  });

  it('lists only indexable pages of this site that answer 200', async () => {
    expect(listed.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const { loc } of listed) {
      if (!loc.startsWith(`${SITE}/`)) {
        problems.push(`${loc} is not on ${SITE}`);
        continue;
      }
      const path = listedPath(loc);
      const page = crawled.get(path) ?? (await fetchPage(path)).fetched;
      if (page.notIndexable !== undefined) problems.push(`${loc} ${page.notIndexable}`);
    }
    expect(problems).toEqual([]);
  });

  it('lists each URL once, with a W3C date as lastmod where it has one', () => {
    const locs = listed.map(({ loc }) => loc);
    expect(locs.length).toBe(new Set(locs).size);
    for (const { loc, lastmod } of listed)
      if (lastmod !== undefined) expect(lastmod, loc).toMatch(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?Z)?$/);
  });
});
