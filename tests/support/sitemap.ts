/**
 * A sitemap read the way a crawler reads it (sitemaps.org protocol 0.9): /sitemap.xml is either a
 * `<urlset>` or a `<sitemapindex>` whose `<sitemap><loc>` entries name further files.
 */

/** The site origin the build was made for; locs name it, and the test server answers for it. */
export const SITE = 'http://localhost:4321';

/** One `<url>` of a urlset: its absolute location and its lastmod, if any. */
export interface SitemapEntry {
  loc: string;
  lastmod: string | undefined;
}

function decodeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => {
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[name]!;
  });
}

function elements(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g'))].map((match) => match[1]!);
}

function child(xml: string, name: string): string | undefined {
  const value = elements(xml, name)[0];
  return value === undefined ? undefined : decodeXml(value.trim());
}

/** Every `<url>` reachable from `path` on the server, following a sitemap index one level down. */
export async function readSitemap(baseUrl: string, path = '/sitemap.xml'): Promise<SitemapEntry[]> {
  const response = await fetch(`${baseUrl}${path}`);
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  const xml = await response.text();
  if (/<sitemapindex[\s>]/.test(xml)) {
    const files = elements(xml, 'sitemap').map((entry) => child(entry, 'loc')!);
    const nested = await Promise.all(files.map((file) => readSitemap(baseUrl, new URL(file).pathname)));
    return nested.flat();
  }
  return elements(xml, 'url').map((entry) => ({ loc: child(entry, 'loc')!, lastmod: child(entry, 'lastmod') }));
}

/** The paths of every page the sitemap lists. */
export async function sitemapPaths(baseUrl: string): Promise<string[]> {
  return (await readSitemap(baseUrl)).map(({ loc }) => {
    const url = new URL(loc);
    return `${url.pathname}${url.search}`;
  });
}
