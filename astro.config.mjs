// @ts-check
import { defineConfig } from 'astro/config';
import { availableParallelism } from 'node:os';
import node from '@astrojs/node';
import { loadConfig } from './functions/config/env.ts';
import { buildCacheReport } from './src/lib/build-cache-report.ts';
import { devService } from './src/lib/dev-mount.ts';
import { ASTRO_MARKDOWN_CONFIG } from './src/lib/markdown-options.ts';
import { sitemap } from './src/lib/sitemap.ts';

// The same validated configuration the server runs on, so a bad SITE_URL fails the build too.
const config = loadConfig();

export default defineConfig({
  site: config.siteUrl,
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  trailingSlash: 'never',
  build: {
    // Clean URLs map to `<path>.html`; the production server serves them without the extension.
    format: 'file',
    // External stylesheets only: the Content-Security-Policy has no 'unsafe-inline'.
    inlineStylesheets: 'never',
    // Pages render a few at a time, so the Open Graph images sharp draws on its own threads overlap
    // with the pages rendered in JavaScript (one at a time by default).
    concurrency: availableParallelism() * 2,
  },
  server: { host: config.host, port: config.port || 4321 },
  markdown: ASTRO_MARKDOWN_CONFIG,
  devToolbar: { enabled: false },
  // `astro dev` serves the API, the contact form, the search page and MCP as production does.
  // The sitemap lists every page the build wrote (src/lib/sitemap.ts).
  integrations: [devService(), sitemap(), buildCacheReport()],
  vite: {
    ssr: { external: ['better-sqlite3'] },
    // Scripts ship as files, never inlined: the Content-Security-Policy allows only 'self'.
    build: { assetsInlineLimit: 0 },
  },
});
