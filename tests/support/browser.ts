import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium (installed by .ci/run), started with the flags this closed network needs;
 * playwright gives each launch a fresh, empty profile.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
