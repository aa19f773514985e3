// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import { loadConfig } from './functions/config/env.ts';
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
  },
  server: { host: config.host, port: config.port || 4321 },
  markdown: ASTRO_MARKDOWN_CONFIG,
  devToolbar: { enabled: false },
  // `astro dev` serves the API, the contact form, the search page and MCP as production does.
  // The sitemap lists every page the build wrote (src/lib/sitemap.ts).
  integrations: [devService(), sitemap()],
  vite: {
    ssr: { external: ['better-sqlite3'] },
    // Scripts ship as files, never inlined: the Content-Security-Policy allows only 'self'.
    build: { assetsInlineLimit: 0 },
  },
});
