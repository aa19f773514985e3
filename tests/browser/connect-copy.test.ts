import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECT_PATH, mcpInstalls } from '../../functions/discovery/install-links.ts';
import { launchChromium, watchedPage } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { SITE } from '../support/sitemap.ts';

/** The copy buttons of /connect in Chromium (src/scripts/copy-buttons.ts). */

let server: RunningServer;
let browser: Browser;
const [product] = mcpInstalls({ siteUrl: SITE, apiOrigin: null });

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ READ_RATE_LIMIT: '10000/60' }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the copy buttons on /connect', () => {
  it('copy the command from the keyboard and announce it in the live region', async () => {
    const { page, problems } = await watchedPage(browser, true);
    // The page is on 127.0.0.1, a secure context, so the Clipboard API is there once permitted.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await page.goto(`${server.baseUrl}${CONNECT_PATH}`);
    const label = `Claude Code command for ${product!.name}`;
    const button = page.getByRole('button', { name: `Copy ${label}`, exact: true });
    await button.waitFor({ state: 'visible' });
    await button.focus();
    await page.keyboard.press('Enter');

    const status = page.getByRole('status').filter({ hasText: 'Copied' });
    await expect.poll(() => status.textContent()).toBe(`Copied: ${label}`);
    expect(await page.locator('#copy-status').getAttribute('aria-live')).toBe('polite');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(product!.claudeCode);

    // Another button with Space: the clipboard follows.
    const codex = page.getByRole('button', { name: `Copy Codex command for ${product!.name}`, exact: true });
    await codex.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(product!.codex.command);
    await expect
      .poll(() => page.locator('#copy-status').textContent())
      .toBe(`Copied: Codex command for ${product!.name}`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('are hidden without JavaScript, leaving the text to select', async () => {
    const { page, problems } = await watchedPage(browser, false);
    await page.goto(`${server.baseUrl}${CONNECT_PATH}`);
    const buttons = page.locator('.copy-button');
    expect(await buttons.count()).toBeGreaterThan(10);
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await page.locator('pre code').allTextContents()).toContain(product!.claudeCode);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
