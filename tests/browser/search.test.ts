import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, watchedPage } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ READ_RATE_LIMIT: '10000/60' }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page that records Content-Security-Policy violations, script errors and API calls. */
async function openSearch(
  javaScriptEnabled: boolean,
  path = '/search',
  { fakeClock = false } = {},
): Promise<{ page: Page; problems: string[]; apiCalls: string[] }> {
  const { page, problems } = await watchedPage(browser, javaScriptEnabled);
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/search')) apiCalls.push(request.url());
  });
  // The page's timers on a clock the test moves, so that a debounce is tested without racing real time.
  if (fakeClock) await page.clock.install();
  await page.goto(`${server.baseUrl}${path}`);
  return { page, problems, apiCalls };
}

const resultTitles = (page: Page) => page.locator('#search-results li h2 a').allTextContents();

describe('search with JavaScript', () => {
  it('shows results while typing, announces the count and keeps the address in step', async () => {
    const { page, problems, apiCalls } = await openSearch(true, '/search', { fakeClock: true });
    // Typing takes no time on the page's clock, however slowly a busy machine delivers the keys;
    // then the clock moves past the debounce.
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.getByLabel('Search for').pressSequentially('leakhou');
    expect(apiCalls).toEqual([]);
    await page.clock.runFor(1000);
    await page.clock.resume();
    await expect.poll(() => resultTitles(page)).toEqual(['Leakhound']);
    expect(await page.locator('#search-status').textContent()).toBe('1 result for “leakhou”.');
    expect(await page.locator('#search-status').getAttribute('aria-live')).toBe('polite');
    expect(await page.locator('#search-results li a').first().getAttribute('href')).toBe('/projects/leakhound');
    expect(new URL(page.url()).search).toBe('?q=leakhou');
    // Debounced: one request for seven keystrokes, and the page never reloaded.
    expect(apiCalls).toHaveLength(1);

    await page.getByLabel('Show').selectOption('operation');
    await expect
      .poll(() => page.locator('#search-status').textContent())
      .toBe('No results for “leakhou”. Try fewer or shorter words.');
    expect(await resultTitles(page)).toEqual([]);

    await page.getByLabel('Search for').fill('');
    await expect.poll(() => page.locator('#search-status').textContent()).toBe('');
    expect(new URL(page.url()).search).toBe('');
    expect(problems).toEqual([]);
  });

  it('renders the same result markup as the server, without fetching again on arrival', async () => {
    const { page, problems, apiCalls } = await openSearch(true, '/search?q=sandbox');
    const served = await page.locator('#search-results').innerHTML();
    expect(served).toContain('<li class="search-result">');
    await page.getByLabel('Search for').fill('sandbox ');
    await page.getByRole('button', { name: 'Search' }).click();
    // Same trimmed query: nothing to fetch (the one request below is the only one); a different
    // query is fetched and drawn exactly as the server draws it.
    await page.getByLabel('Search for').fill('sandbo');
    await expect.poll(() => apiCalls.length).toBe(1);
    await expect.poll(() => page.locator('#search-status').textContent()).toContain('“sandbo”');
    const { html } = await fetch(`${server.baseUrl}/search?q=sandbo`).then(async (r) => ({ html: await r.text() }));
    const list = /<ol id="search-results"[^>]*>(.*?)<\/ol>/s.exec(html)?.[1];
    // Compared as the browser serializes both, since escaping of quotes in text may differ.
    const serverList = await page.evaluate((markup) => {
      const template = document.createElement('template');
      template.innerHTML = markup;
      return template.innerHTML;
    }, list ?? '');
    expect(await page.locator('#search-results').innerHTML()).toBe(serverList);
    expect(problems).toEqual([]);
  });
});

describe('search without JavaScript', () => {
  it('submits the form with GET and shows the server-rendered results', async () => {
    const { page, problems } = await openSearch(false);
    await page.getByLabel('Search for').fill('leakhound');
    await Promise.all([
      page.waitForURL('**/search?q=leakhound*'),
      page.getByRole('button', { name: 'Search' }).click(),
    ]);
    expect(await resultTitles(page)).toEqual(['Leakhound']);
    expect(await page.locator('#search-status').textContent()).toBe('1 result for “leakhound”.');
    expect(await page.getByLabel('Search for').inputValue()).toBe('leakhound');

    await page.getByLabel('Show').selectOption('operation');
    await page.getByLabel('Search for').fill('<script>alert(1)</script> job');
    await Promise.all([page.waitForURL('**/search?q=*type=operation'), page.getByLabel('Search for').press('Enter')]);
    expect(await page.getByLabel('Search for').inputValue()).toBe('<script>alert(1)</script> job');
    expect(await page.getByLabel('Show').inputValue()).toBe('operation');
    expect((await resultTitles(page)).length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});
