import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's Chromium (installed by .ci/run), started with the flags this closed network needs;
 * playwright gives each launch a fresh, empty profile.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

/** Debian's Chromium, or the one CHROMIUM_PATH names. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** No sandbox (tests may run as root), and nothing that reaches out to the network on its own. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A page in a fresh context that records console errors (CSP violations among them) and script errors. */
export async function watchedPage(
  browser: Browser,
  javaScriptEnabled: boolean,
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, problems };
}
