import astroSitemap from '@astrojs/sitemap';
import type { AstroIntegration } from 'astro';
import { copyFile, readFile } from 'node:fs/promises';
import { loadConfig } from '../../functions/config/env.ts';
import { Catalog, type ProjectSource } from '../../functions/projects/catalog.ts';
import { APP_VIEW_BUILD_DIR } from '../../functions/mcp/app-views.ts';
import { isDisallowed } from './crawl-policy.ts';
import { stackSlug } from './stack-slug.ts';

/** What @astrojs/sitemap writes: the index, which names the one sitemap file beside it. */
const INDEX_FILE = 'sitemap-index.xml';
/** Where robots.txt and crawlers that guess look for it (sitemaps.org, "Informing search engine crawlers"). */
const WELL_KNOWN_FILE = 'sitemap.xml';

/**
 * Each page's last change, by path, from the projects' `updated` front matter: a project page
 * its own date; the home page and the listing pages, which show every project's title and count,
 * the newest. Pages without such a date (docs, contact, search) carry no lastmod.
 */
function lastModified(projects: readonly ProjectSource[]): Map<string, string> {
  const catalog = new Catalog(projects, loadConfig().siteUrl);
  const dates = new Map<string, string>();
  for (const { project } of catalog.records)
    if (project.updated) dates.set(`/projects/${project.slug}`, project.updated);
  const newest = [...dates.values()].sort().at(-1);
  if (newest === undefined) return dates;
  dates.set('/', newest);
  for (const { value } of catalog.facets('domain')) dates.set(`/domains/${value}`, newest);
  for (const { value } of catalog.facets('stack')) dates.set(`/stack/${stackSlug(value)}`, newest);
  return dates;
}

/**
 * The sitemap, made by @astrojs/sitemap from every page the build wrote, less the paths robots.txt
 * disallows. The dates come from /portfolio.json, written by the same build from the content
 * collection (the production server loads its catalog from it too), because the integration runs
 * after the pages are built, outside Astro's content layer. The index is also written as
 * /sitemap.xml, the URL robots.txt names.
 */
export function sitemap(): AstroIntegration {
  let dates = new Map<string, string>();
  const integration = astroSitemap({
    // The MCP Apps views are built as pages, then moved out of the site (scripts/write-static-pages.ts).
    filter: (url) =>
      !isDisallowed(new URL(url).pathname) && !new URL(url).pathname.startsWith(`/${APP_VIEW_BUILD_DIR}/`),
    serialize: (item) => {
      const lastmod = dates.get(new URL(item.url).pathname);
      return lastmod === undefined ? item : { ...item, lastmod };
    },
    namespaces: { news: false, xhtml: false, image: false, video: false },
  });
  const writeSitemap = integration.hooks['astro:build:done'];
  if (writeSitemap === undefined) throw new Error('@astrojs/sitemap no longer writes at astro:build:done');
  return {
    name: 'portfolio-sitemap',
    hooks: {
      ...integration.hooks,
      'astro:build:done': async (options) => {
        const { projects } = JSON.parse(await readFile(new URL('portfolio.json', options.dir), 'utf8')) as {
          projects: ProjectSource[];
        };
        dates = lastModified(projects);
        await writeSitemap(options);
        await copyFile(new URL(INDEX_FILE, options.dir), new URL(WELL_KNOWN_FILE, options.dir));
      },
    },
  };
}
