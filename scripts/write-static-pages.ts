import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../functions/config/env.ts';
import { contactAsMarkdown } from '../functions/contact/contact-markdown.ts';
import { ContactPage } from '../functions/contact/contact-page.ts';
import { withLlmsTxtPointer } from '../functions/site/llms-txt-pointer.ts';
import { searchAsMarkdown } from '../functions/search/search-markdown.ts';
import { SearchPage } from '../functions/search/search-page.ts';
import { appViewFile, pageTemplateFile } from '../functions/hosts/static/build-output.ts';
import { APP_VIEW_BUILD_DIR, APP_VIEW_NAMES } from '../functions/mcp/app-views.ts';

/**
 * Part of `npm run build`, after Astro: /contact and /search are pages the service fills in per
 * request, so Astro builds them with `{{slots}}`. Each is moved to the templates the service
 * reads (pageTemplateFile), and the static output gets the same page with every slot empty, and
 * its Markdown twin, which a static host serves as they are: the form posts to the service, the
 * search page's script asks the API. The contact page then carries no idempotency key and no
 * fill-time token (functions/contact/form-token.ts, `not_issued`).
 *
 * The MCP Apps views (functions/mcp/app-views.ts) are moved out of the static output too: each is
 * a resource of the product MCP server, which reads them from appViewFile, and never a page.
 */
const DIST = path.resolve(process.argv[2] ?? 'dist');
const CLIENT = path.join(DIST, 'client');
const origins = loadConfig();

function moveTemplate(page: '/contact' | '/search'): string {
  const built = path.join(CLIENT, `${page.slice(1)}.html`);
  const template = readFileSync(built, 'utf8');
  const target = pageTemplateFile(DIST, page);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, template);
  return template;
}

const written: Record<string, string> = {
  'contact.html': new ContactPage(moveTemplate('/contact')).render({ token: '', formToken: '' }),
  'contact.md': withLlmsTxtPointer(contactAsMarkdown(origins), origins.siteUrl),
  'search.html': new SearchPage(moveTemplate('/search')).render({ query: '' }),
  'search.md': withLlmsTxtPointer(searchAsMarkdown({ query: '' }, origins), origins.siteUrl),
};
function moveAppViews(): void {
  for (const name of APP_VIEW_NAMES) {
    mkdirSync(path.dirname(appViewFile(DIST, name)), { recursive: true });
    renameSync(path.join(CLIENT, APP_VIEW_BUILD_DIR, `${name}.html`), appViewFile(DIST, name));
  }
  rmSync(path.join(CLIENT, APP_VIEW_BUILD_DIR), { recursive: true });
}

moveAppViews();
for (const [file, body] of Object.entries(written)) writeFileSync(path.join(CLIENT, file), body);
process.stdout.write(
  `static pages: ${Object.keys(written).join(', ')} written; their templates under ${path.relative(process.cwd(), path.join(DIST, 'templates'))}, the MCP Apps views under ${path.relative(process.cwd(), path.dirname(appViewFile(DIST, 'project-card')))}\n`,
);
