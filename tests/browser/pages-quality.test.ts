import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { sitemapPaths } from '../support/sitemap.ts';

/** Pages are under this many bytes transferred, everything they load included (issue 7). */
const PAGE_WEIGHT_LIMIT = 100 * 1024;
/**
 * Pages visited at once, each in its own context. A visit spends most of its time waiting (the
 * network must stay idle for 500 ms before it counts as loaded), so a few visits overlap that wait;
 * each context has its own cache, so what one page transfers never depends on another.
 */
const VISITS_AT_ONCE = 4;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: RunningServer;
let browser: Browser;
let pages: string[];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ READ_RATE_LIMIT: '100000/60' }), launchChromium()]);
  const fromSitemap = await sitemapPaths(server.baseUrl);
  pages = [...new Set([...fromSitemap, '/search?q=rust', '/contact/thanks', '/no-such-page'])];
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Visit {
  violations: { id: string; impact: string | null; nodes: number }[];
  cspViolations: string[];
  transferred: number;
  scripts: string[];
}

/**
 * Loads a page in a fresh context as a visitor does and sums every response's encoded size until the
 * network is idle; only then runs axe, which scrolls nodes into view and so makes Chromium fetch lazy
 * images (a cover's PNG fallback) that no visit at this viewport loads. CSP reports are recorded
 * throughout.
 */
async function visit(path: string): Promise<Visit> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cspViolations: string[] = [];
  const sizes: Promise<number>[] = [];
  const scripts: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  const recordSize = (request: Request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
    sizes.push(request.sizes().then((size) => size.responseBodySize + size.responseHeadersSize));
  };
  page.on('requestfinished', recordSize);
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`Content Security Policy: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  await page.goto(`${server.baseUrl}${path}`, { waitUntil: 'networkidle' });
  // Stop recording before awaiting the sizes: a request that finished later would add a sizes()
  // promise nobody awaits, which rejects once the context closes.
  page.off('requestfinished', recordSize);
  const transferred = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
  // Evaluated through the DevTools protocol, so the page's CSP does not apply to axe itself.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: { id: string; impact: string | null; nodes: unknown[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.length,
    }));
  });
  await context.close();
  return { violations, cspViolations, transferred, scripts };
}

/** Every page's visit, VISITS_AT_ONCE at a time. */
async function visitAll(paths: string[]): Promise<Map<string, Visit>> {
  const results = new Map<string, Visit>();
  const queue = [...paths];
  const visitor = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) results.set(path, await visit(path));
  };
  await Promise.all(Array.from({ length: VISITS_AT_ONCE }, visitor));
  return results;
}

describe('every page, in Chromium', () => {
  it('has no axe violations, no CSP violation and weighs under 100 KB; project and doc pages ship no JavaScript', async () => {
    const results = await visitAll(pages);
    const failures: string[] = [];
    for (const path of pages) {
      const result = results.get(path)!;
      if (result.violations.length > 0) failures.push(`${path}: axe ${JSON.stringify(result.violations)}`);
      if (result.cspViolations.length > 0) failures.push(`${path}: CSP ${result.cspViolations.join('; ')}`);
      if (result.transferred >= PAGE_WEIGHT_LIMIT) failures.push(`${path}: ${result.transferred} bytes`);
      // The home page, /search and /contact offer WebMCP tools (src/scripts/webmcp*.ts) and /connect
      // its copy buttons (src/scripts/copy-buttons.ts); no other page has script.
      const scriptFree =
        path.startsWith('/projects/') ||
        (path !== '/' && !['/search', '/contact', '/connect'].some((prefix) => path.startsWith(prefix)));
      if (scriptFree && result.scripts.length > 0) failures.push(`${path}: loads ${result.scripts.join(', ')}`);
    }
    expect(failures).toEqual([]);
    expect(pages.length).toBeGreaterThan(75);
    // A hang-catcher only: about 80 pages, each loaded and checked with axe, take some 3 minutes on a busy machine.
  }, 900_000);
});
