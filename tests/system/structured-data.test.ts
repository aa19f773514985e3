import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type InProcessService } from '../support/service.ts';
import { sitemapPaths } from '../support/sitemap.ts';

/** The server runs with the SITE_URL it was built with, so absolute URLs name this origin. */
const SITE = 'http://localhost:4321';
let server: InProcessService;
let pages: Map<string, string>;

beforeAll(async () => {
  server = await startService({ READ_RATE_LIMIT: '100000/60' });
  const paths = await sitemapPaths(server.baseUrl);
  pages = new Map();
  for (const path of [...paths, '/search?q=rust', '/contact/thanks', '/no-such-page']) {
    pages.set(path, await (await fetch(`${server.baseUrl}${path}`)).text());
  }
});
afterAll(() => server.stop());

/** A site URL fetched from the test server. */
function local(url: string): string {
  expect(url.startsWith(`${SITE}/`), url).toBe(true);
  return `${server.baseUrl}${url.slice(SITE.length)}`;
}

function decodeAttribute(value: string): string {
  return value.replace(/&(amp|quot|lt|gt|#39|#x27);/g, (_, name: string) => {
    return { amp: '&', quot: '"', lt: '<', gt: '>', '#39': "'", '#x27': "'" }[name]!;
  });
}

function meta(html: string, key: string): string | undefined {
  const tag = new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`).exec(html);
  return tag === null ? undefined : decodeAttribute(tag[1]!);
}

function canonical(html: string): string | undefined {
  const link = /<link rel="canonical" href="([^"]*)"/.exec(html);
  return link === null ? undefined : decodeAttribute(link[1]!);
}

type Node = Record<string, unknown> & { '@type': string };

/** Every node of every JSON-LD block of the page, each block parsed as JSON. */
function jsonLd(html: string): { nodes: Node[]; inHead: boolean } {
  const head = html.slice(0, html.indexOf('</head>'));
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
  const nodes = blocks.flatMap((block) => {
    const document = JSON.parse(block[1]!) as { '@context': string; '@graph': Node[] };
    expect(document['@context']).toBe('https://schema.org');
    return document['@graph'];
  });
  return { nodes, inHead: blocks.every((block) => head.includes(block[0])) };
}

/** What a page of each kind describes, in the order the page lists it. */
function expectedTypes(path: string): string[] {
  if (path === '/') return ['Person', 'WebSite'];
  if (path.startsWith('/projects/')) return ['SoftwareSourceCode', 'BreadcrumbList', 'Person'];
  if (/^\/(domains|stack)\/|^\/developers\/./.test(path)) return ['BreadcrumbList'];
  return [];
}

/** The links of the visible breadcrumb, absolute. */
function visibleBreadcrumb(html: string): string[] {
  const trail = /<p class="breadcrumb">([\s\S]*?)<\/p>/.exec(html);
  return trail === null ? [] : [...trail[1]!.matchAll(/href="([^"]*)"/g)].map((m) => new URL(m[1]!, SITE).href);
}

describe('JSON-LD', () => {
  it('parses as JSON in the head of every page and describes what the page is', () => {
    for (const [path, html] of pages) {
      const { nodes, inHead } = jsonLd(html);
      expect(
        nodes.map((node) => node['@type']),
        path,
      ).toEqual(expectedTypes(path));
      expect(inHead, path).toBe(true);
    }
  });

  it('lists as breadcrumbs exactly the trail the page shows, ending with the page itself', () => {
    for (const [path, html] of pages) {
      const list = jsonLd(html).nodes.find((node) => node['@type'] === 'BreadcrumbList');
      if (list === undefined) {
        expect(visibleBreadcrumb(html), path).toEqual([]);
        continue;
      }
      const items = list.itemListElement as { position: number; name: string; item?: string }[];
      expect(items.map((item) => item.position)).toEqual(items.map((_, index) => index + 1));
      expect(
        items.slice(0, -1).map((item) => item.item),
        path,
      ).toEqual(visibleBreadcrumb(html));
      expect(items.at(-1)!.item, path).toBeUndefined();
      expect(html, path).toContain(`>${items.at(-1)!.name.replace(/&/g, '&amp;')}`);
    }
  });

  it('describes the owner on the home page with the profile links the page shows and a working search', async () => {
    const html = pages.get('/')!;
    const [person, website] = jsonLd(html).nodes;
    const profiles = [...html.matchAll(/<a href="([^"]*)" rel="me">/g)].map((m) => decodeAttribute(m[1]!));
    expect(person).toMatchObject({ '@id': `${SITE}/#person`, url: `${SITE}/`, sameAs: profiles });
    expect(person!.name).toBe(meta(html, 'og:site_name'));
    const template = (website!.potentialAction as { target: { urlTemplate: string } }).target.urlTemplate;
    expect(template).toBe(`${SITE}/search?q={search_term_string}`);
    const results = await fetch(local(template.replace('{search_term_string}', 'rust')));
    expect(results.status).toBe(200);
  });

  it('describes each project with the facts and links its page shows, the owner as author', () => {
    for (const [path, html] of pages) {
      if (!path.startsWith('/projects/')) continue;
      const [project, , person] = jsonLd(html).nodes;
      expect(project!.url, path).toBe(canonical(html));
      expect(project!.image, path).toBe(meta(html, 'og:image'));
      expect(html, path).toContain(`<h1>${String(project!.name).replace(/&/g, '&amp;')}</h1>`);
      expect((project!.author as { '@id': string })['@id']).toBe(person!['@id']);
      const source = /<a href="([^"]*)">Source code<\/a>/.exec(html);
      expect(project!.codeRepository, path).toBe(source === null ? undefined : decodeAttribute(source[1]!));
      for (const technology of project!.keywords as string[]) expect(html).toContain(`>${technology}</a>`);
    }
  });
});

describe('Open Graph and X cards', () => {
  it('are complete on every page, with absolute URLs and og:url equal to the canonical link', () => {
    for (const [path, html] of pages) {
      for (const key of ['og:type', 'og:site_name', 'og:title', 'og:description', 'og:image', 'og:image:alt']) {
        expect(meta(html, key), `${path} ${key}`).toBeTruthy();
      }
      expect(meta(html, 'og:image:width'), path).toBe('1200');
      expect(meta(html, 'og:image:height'), path).toBe('630');
      expect(meta(html, 'twitter:card'), path).toBe('summary_large_image');
      expect(meta(html, 'twitter:title'), path).toBe(meta(html, 'og:title'));
      expect(meta(html, 'twitter:description'), path).toBe(meta(html, 'og:description'));
      expect(meta(html, 'twitter:image'), path).toBe(meta(html, 'og:image'));
      expect(meta(html, 'og:image'), path).toMatch(/^http:\/\/localhost:4321\/og\/.+\.png$/);
      // The 404 page has no address of its own: neither a canonical link nor og:url.
      expect(meta(html, 'og:url'), path).toBe(canonical(html));
      if (path !== '/no-such-page') expect(canonical(html), path).toMatch(/^http:\/\/localhost:4321\//);
    }
  });

  it('type the home page as a profile, projects as articles and the rest as the website', () => {
    for (const [path, html] of pages) {
      const type = path === '/' ? 'profile' : path.startsWith('/projects/') ? 'article' : 'website';
      expect(meta(html, 'og:type'), path).toBe(type);
    }
  });

  it('point at images that answer 200 image/png with a 1200x630 PNG: the site card, one per project', async () => {
    const images = new Set([...pages.values()].map((html) => meta(html, 'og:image')!));
    const projects = [...pages.keys()].filter((path) => path.startsWith('/projects/'));
    expect(images.size).toBe(projects.length + 1);
    for (const url of images) {
      const response = await fetch(local(url));
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toBe('image/png');
      expect(response.headers.get('content-encoding'), url).toBeNull();
      const png = Buffer.from(await response.arrayBuffer());
      // PNG signature, then the IHDR chunk: width and height as 32-bit big-endian (RFC 2083 section 4.1.1).
      expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), url).toBe(true);
      expect(png.toString('latin1', 12, 16), url).toBe('IHDR');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], url).toEqual([1200, 630]);
    }
  });
});
