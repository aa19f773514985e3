import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, watchedPage } from '../support/browser.ts';
import { readInbox } from '../support/contact.ts';
import { startServer, type RunningServer } from '../support/server.ts';

/** The shortest fill time the server accepts: short, so that a test can wait it out as a person writing would. */
const MIN_FILL_SECONDS = 1;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ CONTACT_MIN_FILL_SECONDS: String(MIN_FILL_SECONDS) }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Lets the page be open longer than the minimum fill time, as it is for a person writing. */
function writing(page: Page): Promise<void> {
  return page.waitForTimeout(MIN_FILL_SECONDS * 1000 + 100);
}

/** Console errors other than Chromium's note that a request got a 400, which these tests provoke on purpose. */
function unexpected(problems: string[]): string[] {
  return problems.filter((problem) => !problem.includes('the server responded with a status of 400'));
}

/** A page that records Content-Security-Policy violations and script errors. */
async function openContact(javaScriptEnabled: boolean): Promise<{ page: Page; problems: string[] }> {
  const { page, problems } = await watchedPage(browser, javaScriptEnabled);
  await page.goto(`${server.baseUrl}/contact`);
  return { page, problems };
}

describe('contact form with JavaScript', () => {
  it('shows field errors inline, then sends the message as JSON and lands on the thank-you page', async () => {
    const { page, problems } = await openContact(true);
    const sent: { key: string | undefined; type: string | undefined }[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/contact')) {
        sent.push({ key: request.headers()['idempotency-key'], type: request.headers()['content-type'] });
      }
    });
    await page.getByLabel('Your name').fill('Browser Visitor');
    await page.getByLabel('Your email').fill('not-an-email');
    await page.getByLabel(/Message/).fill('Too short');
    await page.getByRole('button', { name: 'Send message' }).click();

    await expect
      .poll(() => page.locator('#email-error').textContent())
      .toBe('Your email must be a valid email address.');
    expect(await page.locator('#message-error').textContent()).toContain('at least 10 characters');
    expect(await page.getByLabel('Your email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Your name').getAttribute('aria-invalid')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    expect(await page.locator('#form-status').textContent()).toContain('correct the fields');
    expect(page.url()).toBe(`${server.baseUrl}/contact`);

    await page.getByLabel('Your email').fill('visitor@example.com');
    await page.getByLabel(/Message/).fill('Hello from a real browser, with JavaScript.');
    await writing(page);
    await Promise.all([
      page.waitForURL('**/contact/thanks'),
      page.getByRole('button', { name: 'Send message' }).click(),
    ]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');

    expect(sent).toHaveLength(2);
    expect(sent.every((s) => s.type === 'application/json')).toBe(true);
    expect(sent[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
    const inbox = await readInbox(server.dataDir);
    expect(inbox.filter((m) => m.message === 'Hello from a real browser, with JavaScript.')).toHaveLength(1);
    expect(unexpected(problems)).toEqual([]);
  });

  it('keeps the key across a retry after a network failure and disables the button while sending', async () => {
    const { page, problems } = await openContact(true);
    const keys: string[] = [];
    let attempt = 0;
    // The second request is held until the test has seen the disabled button, however long that takes.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/contact', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      attempt++;
      if (attempt === 1) {
        await route.abort('failed');
        return;
      }
      await released;
      await route.continue();
    });
    const message = `Retried message ${Date.now()}`;
    await page.getByLabel('Your name').fill('Retry Visitor');
    await page.getByLabel('Your email').fill('retry@example.com');
    await page.getByLabel(/Message/).fill(message);
    const button = page.getByRole('button', { name: 'Send message' });
    await writing(page);
    await button.click();
    await expect.poll(() => page.locator('#form-status').textContent()).toContain('Could not reach the server');
    expect(await button.isEnabled()).toBe(true);

    await button.click();
    await expect.poll(() => button.isDisabled()).toBe(true);
    release();
    await page.waitForURL('**/contact/thanks');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect((await readInbox(server.dataDir)).filter((m) => m.message === message)).toHaveLength(1);
    expect(problems.filter((p) => !p.includes('net::ERR_FAILED'))).toEqual([]);
  });
});

describe('contact form without JavaScript', () => {
  it('posts the plain form, shows errors next to the fields, then redirects to the thank-you page', async () => {
    const { page, problems } = await openContact(false);
    await page.getByLabel('Your name').fill('No Script');
    await page.getByLabel('Your email').fill('noscript@example.com');
    await page.getByLabel(/Message/).fill('short');
    // The browser's own checks would stop a too-short message; the server's answer is what is under test.
    await page.evaluate(() => document.querySelector('form')?.setAttribute('novalidate', ''));
    await Promise.all([page.waitForURL('**/contact'), page.getByRole('button', { name: 'Send message' }).click()]);
    expect(await page.locator('#message-error').textContent()).toBe('Message must be at least 10 characters.');
    expect(await page.getByLabel(/Message/).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Your name').inputValue()).toBe('No Script');

    const message = `Plain browser post ${Date.now()}`;
    await page.getByLabel(/Message/).fill(message);
    await writing(page);
    await Promise.all([
      page.waitForURL('**/contact/thanks'),
      page.getByRole('button', { name: 'Send message' }).click(),
    ]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');
    expect((await readInbox(server.dataDir)).filter((m) => m.message === message)).toHaveLength(1);
    expect(unexpected(problems)).toEqual([]);
  });
});

describe('spam guards of the form without JavaScript', () => {
  /** Fills the form as a visitor would, sends it, and expects the thank-you page whatever the verdict. */
  async function send(page: Page, message: string): Promise<void> {
    await page.getByLabel('Your name').fill('Quick Sender');
    await page.getByLabel('Your email').fill('quick@example.com');
    await page.getByLabel(/Message/).fill(message);
    await Promise.all([
      page.waitForURL('**/contact/thanks'),
      page.getByRole('button', { name: 'Send message' }).click(),
    ]);
  }

  it('keeps a form sent sooner than the minimum fill time as spam, showing the thank-you page all the same', async () => {
    // A minimum no test outlasts: the post surely comes too fast.
    const patient = await startServer({ CONTACT_MIN_FILL_SECONDS: '600' });
    try {
      const { page, problems } = await watchedPage(browser, false);
      await page.goto(`${patient.baseUrl}/contact`);
      const message = `Sent at once ${Date.now()}`;
      await send(page, message);
      expect(await readInbox(patient.dataDir)).toEqual([]);
      const spam = await readInbox(patient.dataDir, '--spam');
      expect(spam.map((entry) => [entry.message, entry.spamReasons])).toEqual([[message, ['form sent too fast (+5)']]]);
      expect(problems).toEqual([]);
    } finally {
      await patient.stop();
    }
  });

  it('keeps a form whose hidden field was filled as spam; people never reach that field', async () => {
    const { page, problems } = await openContact(false);
    const honeypot = page.locator('#website');
    expect(await honeypot.getAttribute('tabindex')).toBe('-1');
    expect(await honeypot.getAttribute('autocomplete')).toBe('off');
    expect(await page.locator('label[for="website"]').textContent()).toBe('Leave this field empty');
    // Hidden from assistive technology: the accessibility tree of the form has no such field.
    expect(await page.locator('form').ariaSnapshot()).not.toMatch(/Leave this field empty/);
    await page.getByLabel('Your name').focus();
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('website');
    }

    await honeypot.fill('https://bot.example', { force: true });
    const message = `Filled by a bot ${Date.now()}`;
    await writing(page);
    await send(page, message);
    const spam = await readInbox(server.dataDir, '--spam');
    expect(spam.find((entry) => entry.message === message)?.spamReasons).toEqual(['hidden field filled (+5)']);
    expect((await readInbox(server.dataDir)).map((entry) => entry.message)).not.toContain(message);
    expect(problems).toEqual([]);
  });
});
