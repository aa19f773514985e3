import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config/env.ts';
import { isServicePath } from '../../functions/config/public-urls.ts';
import { securityHeaders } from '../../functions/http/security-headers.ts';
import { loadBuild } from '../../functions/hosts/static/build-output.ts';
import { startServer, type RunningService } from '../../functions/hosts/node/start-server.ts';
import { launchChromium, watchedPage } from '../support/browser.ts';
import { storedInbox } from '../support/contact.ts';
import { engineEnv } from '../support/engines.ts';
import { freePort } from '../support/free-port.ts';
import { freshDataDir } from '../support/server.ts';
import { buildFor } from '../support/split-build.ts';
import { startStaticHost, type StaticHost } from '../support/static-host.ts';
import { callTool } from '../support/webmcp-tools.ts';

/**
 * The split-origin mode: the built pages on a static host of their own (one port of 127.0.0.1),
 * with no Node service behind it, and the dynamic part on API_ORIGIN (another port: another
 * origin), built and run with the same two variables. The static host sends the security headers
 * a host's configuration would, so a fetch or post the Content-Security-Policy forbids shows up
 * as a console error.
 */
let site: StaticHost;
let service: RunningService;
let browser: Browser;
let SITE: string;
let API: string;
let clientDir: string;
const dataDir = freshDataDir();

beforeAll(async () => {
  const [sitePort, apiPort] = [await freePort(), await freePort()];
  SITE = `http://127.0.0.1:${sitePort}`;
  API = `http://127.0.0.1:${apiPort}`;
  const env = { SITE_URL: SITE, API_ORIGIN: API };
  const [dist, launched] = await Promise.all([buildFor(env, 'split-origin-build'), launchChromium()]);
  browser = launched;
  const config = loadConfig({
    ...process.env,
    ...env,
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ACCESS_LOG: 'false',
    READ_RATE_LIMIT: '10000/60',
    CONTACT_RATE_LIMIT: '100/60',
    // The form is filled at once here; the fill-time guard is not what these tests look at.
    CONTACT_MIN_FILL_SECONDS: '0',
    ...(await engineEnv(dataDir)),
  });
  service = await startServer(config, loadBuild(dist));
  clientDir = path.join(dist, 'client');
  site = await startStaticHost(clientDir, sitePort, securityHeaders(config));
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
  await site?.close();
});

/** The messages stored with this text (live inbox). */
async function stored(text: string): Promise<number> {
  return (await storedInbox(dataDir)).filter((entry) => entry.message === text).length;
}

/** What reached the static host other than reads: it serves files only. */
function writesToSite(): StaticHost['requests'] {
  return site.requests.filter((request) => request.method !== 'GET' && request.method !== 'HEAD');
}

async function fillContact(page: Page, email: string, message: string): Promise<void> {
  await page.getByLabel('Your name').fill('Split Visitor');
  await page.getByLabel('Your email').fill(email);
  await page.getByLabel(/Message/).fill(message);
}

/** Every absolute URL on either origin in the built files that are text (pages, twins, documents). */
function builtUrls(): { file: string; url: URL }[] {
  const found: { file: string; url: URL }[] = [];
  const pattern = /http:\/\/127\.0\.0\.1:\d+[^\s"'<>)\]`\\]*/g;
  for (const file of readdirSync(clientDir, { recursive: true, encoding: 'utf8' })) {
    if (/\.(png|svg|ico|woff2?|br|gz|js|css)$/.test(file) || file.startsWith('_astro')) continue;
    let text: string;
    try {
      text = readFileSync(path.join(clientDir, file), 'utf8');
    } catch {
      continue; // a folder
    }
    // HTML escapes the quotes around a URL inside text (a JSON snippet on /connect): read them as quotes.
    if (file.endsWith('.html')) text = text.replace(/&quot;|&#39;|&#34;/g, '"').replace(/&amp;/g, '&');
    for (const [href] of text.matchAll(pattern)) {
      // Template text such as `{slug}` may follow a URL; what is no URL names no origin.
      // A sentence may end right after a URL (`…/mcp: the server`).
      const trimmed = href.replace(/[.,:;]+$/, '');
      if (URL.canParse(trimmed)) found.push({ file, url: new URL(trimmed) });
    }
  }
  return found;
}

describe('the build for two origins', () => {
  it('names API_ORIGIN for every dynamic path and SITE_URL for every page and document, in every built file', () => {
    const urls = builtUrls();
    const on = (origin: string) => urls.filter(({ url }) => url.origin === origin);
    expect(on(API).length).toBeGreaterThan(20);
    expect(on(SITE).length).toBeGreaterThan(100);
    expect(urls.filter(({ url }) => url.origin !== SITE && url.origin !== API)).toEqual([]);
    // The pages' forms (/contact, /search) post to the service; their links lead to the pages.
    const pages = new Set(['/contact', '/search', '/contact.md', '/search.md']);
    const misplaced = urls.filter(({ url }) => {
      const dynamic = isServicePath(url.pathname);
      // The API origin alone is the base the operations' paths go on (OpenAPI servers, an SDK's baseUrl).
      if (url.origin === API) return !dynamic && url.pathname !== '/';
      return dynamic && !(pages.has(url.pathname) && url.search === '');
    });
    expect(misplaced.map(({ file, url }) => `${file}: ${url.href}`)).toEqual([]);
  });

  it('puts OpenAPI servers, server cards, the api-catalog and OAuth metadata on the API origin', () => {
    const json = (file: string) => JSON.parse(readFileSync(path.join(clientDir, file), 'utf8')) as unknown;
    expect(json('openapi.json')).toMatchObject({ servers: [{ url: API }] });
    expect((json('mcp/server-card') as { remotes: { url: string }[] }).remotes[0]!.url).toBe(`${API}/mcp`);
    const anchors = (json('.well-known/api-catalog') as { linkset: { anchor: string }[] }).linkset.map(
      (set) => set.anchor,
    );
    expect(anchors).toEqual([`${API}/api/v1`, `${API}/mcp`, `${API}/mcp/docs`]);
    expect(json('.well-known/oauth-authorization-server')).toMatchObject({
      issuer: SITE,
      token_endpoint: `${API}/oauth/token`,
    });
    expect(json('.well-known/oauth-protected-resource/api/v1')).toMatchObject({ resource: `${API}/api/v1` });
  });
});

describe('the contact form, pages on the site, the service on API_ORIGIN', () => {
  it('with JavaScript: posts JSON to the API origin with CORS, then shows the thank-you page on the site', async () => {
    const { page, problems } = await watchedPage(browser, true);
    await page.goto(`${SITE}/contact`);
    const posted: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posted.push(request.url());
    });
    const message = `With JavaScript across origins ${Date.now()}`;
    await fillContact(page, 'visitor@example.com', message);
    await Promise.all([
      page.waitForURL(`${SITE}/contact/thanks`),
      page.getByRole('button', { name: 'Send message' }).click(),
    ]);
    expect(posted).toEqual([`${API}/api/v1/contact`]);
    expect(await stored(message)).toBe(1);
    expect(writesToSite()).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('without JavaScript: the static form posts to the API origin, which sends the visitor back to the thank-you page on the site', async () => {
    const { page, problems } = await watchedPage(browser, false);
    await page.goto(`${SITE}/contact`);
    const message = `Without JavaScript across origins ${Date.now()}`;
    await fillContact(page, 'visitor@example.com', message);
    await Promise.all([
      page.waitForURL(`${SITE}/contact/thanks`),
      page.getByRole('button', { name: 'Send message' }).click(),
    ]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');
    expect(await stored(message)).toBe(1);
    expect(writesToSite()).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('without JavaScript, a field the service refuses: the API origin shows the form again with the problem and the values, its links leading to the site', async () => {
    const { page } = await watchedPage(browser, false);
    await page.goto(`${SITE}/contact`);
    // The browser's own check lets `a@b` through (HTML "valid e-mail address"); the service wants a domain with a dot.
    await fillContact(page, 'visitor@localhost', 'A message the service will send back.');
    await Promise.all([page.waitForURL(`${API}/contact`), page.getByRole('button', { name: 'Send message' }).click()]);
    expect(await page.locator('#form-status').textContent()).toContain('correct the fields');
    expect(await page.getByLabel('Your email').inputValue()).toBe('visitor@localhost');
    expect(await page.getByLabel('Your email').getAttribute('aria-invalid')).toBe('true');
    const home = await page.locator('header a[href]').first().getAttribute('href');
    expect(home?.startsWith(`${SITE}/`)).toBe(true);
    // Sent again, corrected, from the page the API origin showed: back to the site's thank-you page.
    const message = `Corrected without JavaScript ${Date.now()}`;
    await fillContact(page, 'visitor@example.com', message);
    await Promise.all([
      page.waitForURL(`${SITE}/contact/thanks`),
      page.getByRole('button', { name: 'Send message' }).click(),
    ]);
    expect(await stored(message)).toBe(1);
  });
});

describe('the search page, pages on the site, the service on API_ORIGIN', () => {
  it('with JavaScript: asks the API origin as the visitor types, and links the results on the site', async () => {
    const { page, problems } = await watchedPage(browser, true);
    await page.goto(`${SITE}/search`);
    await page.getByLabel('Search for').fill('api');
    await expect.poll(() => page.locator('#search-results li').count()).toBeGreaterThan(0);
    const href = await page.locator('#search-results li a').first().getAttribute('href');
    expect(href).toMatch(/^\/(?!\/)/);
    expect(new URL(href!, page.url()).origin).toBe(SITE);
    expect(site.requests.some((request) => request.path.startsWith('/api'))).toBe(false);
    expect(problems).toEqual([]);
  });

  it('with JavaScript, opened at /search?q= on the static host: the script fills in the query and its results', async () => {
    const { page, problems } = await watchedPage(browser, true);
    await page.goto(`${SITE}/search?q=contact`);
    await expect.poll(() => page.getByLabel('Search for').inputValue()).toBe('contact');
    await expect.poll(() => page.locator('#search-results li').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('without JavaScript: the form asks the API origin, which shows the results with links to the site', async () => {
    const { page, problems } = await watchedPage(browser, false);
    await page.goto(`${SITE}/search`);
    await page.getByLabel('Search for').fill('api');
    await Promise.all([page.waitForURL(`${API}/search?**`), page.getByRole('button', { name: 'Search' }).click()]);
    const links = await page
      .locator('#search-results li a')
      .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.startsWith(`${SITE}/`), link).toBe(true);
    expect(problems).toEqual([]);
  });
});

/** A page of the site with a stand-in for the browser's WebMCP (document.modelContext) that keeps each registered tool. */
async function withTools(pagePath: string, name: string): Promise<{ page: Page; problems: string[] }> {
  const { page, problems } = await watchedPage(browser, true);
  await page.addInitScript(() => {
    const registered: { name: string }[] = [];
    Object.assign(window, { registeredTools: registered });
    const modelContext = {
      registerTool(tool: { name: string }) {
        registered.push(tool);
        return Promise.resolve(undefined);
      },
    };
    Object.defineProperty(Document.prototype, 'modelContext', { configurable: true, get: () => modelContext });
  });
  await page.goto(`${SITE}${pagePath}`);
  await expect
    .poll(() =>
      page.evaluate(() =>
        (window as unknown as { registeredTools: { name: string }[] }).registeredTools.map((t) => t.name),
      ),
    )
    .toContain(name);
  return { page, problems };
}

describe('the WebMCP tools of the site call the API origin', () => {
  it('search_portfolio on /search', async () => {
    const { page, problems } = await withTools('/search', 'search_portfolio');
    const result = await callTool(page, 'search_portfolio', { q: 'api' });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ query: 'api', results: expect.any(Array) });
    expect(problems).toEqual([]);
  });

  it('send_message on /contact stores the message', async () => {
    const { page, problems } = await withTools('/contact', 'send_message');
    const message = `From an agent across origins ${Date.now()}`;
    const result = await callTool(page, 'send_message', { name: 'Agent', email: 'agent@example.com', message });
    expect(result.structuredContent).toEqual({ success: true });
    expect(await stored(message)).toBe(1);
    expect(problems).toEqual([]);
  });
});
