import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type InProcessApi } from '../support/api.ts';
import { contactPageTokens, postContact, storedInbox, VALID } from '../support/contact.ts';
import { receiver, waitFor } from '../support/webhook.ts';

// The notifier and the contact form in process; restarts, kill -9, a locked database seen in the
// log and the inbox CLI are in tests/system/contact-delivery.test.ts.
describe('owner notification by webhook', () => {
  it('retries with backoff and delivers a message exactly once; sandbox messages are never sent', async () => {
    const hook = await receiver(2);
    const server = await startApi({ NOTIFY_WEBHOOK_URL: hook.url, NOTIFY_RETRY_BASE_MS: '100' });
    try {
      const message = `Notify me ${randomUUID()}`;
      const started = Date.now();
      const posted = await postContact(server.baseUrl, { ...VALID, message });
      expect(posted.status).toBe(200);
      // The visitor's answer did not wait for the failing webhook.
      expect(hook.received).toHaveLength(0);
      await hook.accepted(1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(100 + 200);
      expect(hook.attempts()).toBe(3);
      expect(hook.received[0]!.body).toMatchObject({ type: 'contact.message', ...VALID, message });
      expect(hook.received[0]!.headers['idempotency-key']).toMatch(/^message-\d+$/);
      await waitFor(
        async () => (await storedInbox(server.dataDir))[0]?.deliveries.webhook?.state === 'delivered',
        'the delivery to be recorded',
      );
      expect((await storedInbox(server.dataDir))[0]!.deliveries.webhook).toEqual({
        state: 'delivered',
        attempts: 3,
        lastError: null,
        nextAttemptAt: null,
      });

      expect(
        (await postContact(server.baseUrl, { ...VALID, message: 'A sandbox message here' }, { query: '?sandbox=true' }))
          .status,
      ).toBe(200);
      // What the notifier works from: the sandbox message has no delivery to make, now or later.
      const [sandboxed] = await storedInbox(server.dataDir, { sandbox: true });
      expect([sandboxed!.message, sandboxed!.deliveries]).toEqual(['A sandbox message here', {}]);
      // And a live message sent after it is the next and only other one the receiver gets.
      const later = `Notify me too ${randomUUID()}`;
      expect((await postContact(server.baseUrl, { ...VALID, message: later })).status).toBe(200);
      await hook.accepted(2);
      expect(hook.received.map((post) => (post.body as { message: string }).message)).toEqual([message, later]);
    } finally {
      await server.stop();
      hook.close();
    }
  });
});

describe('the contact form without JavaScript', () => {
  let server: InProcessApi;
  beforeAll(async () => {
    // Posts follow the page at once; the minimum fill time has its own tests (contact-spam.test.ts).
    server = await startApi({ CONTACT_MIN_FILL_SECONDS: '0' });
  });
  afterAll(() => server.stop());

  async function formToken(): Promise<string> {
    const html = await (await fetch(`${server.baseUrl}/contact`)).text();
    return /name="idempotency_key" value="([0-9a-f-]{36})"/.exec(html)![1]!;
  }

  function postForm(fields: Record<string, string>) {
    return fetch(`${server.baseUrl}/contact`, {
      method: 'POST',
      body: new URLSearchParams(fields),
      redirect: 'manual',
    });
  }

  it('renders a fresh token on every GET and is never cached', async () => {
    const [a, b] = [await formToken(), await formToken()];
    expect(a).not.toBe(b);
    const page = await fetch(`${server.baseUrl}/contact`);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).not.toContain('{{');
  });

  it('redirects after a good post, and a resubmitted form stores nothing twice', async () => {
    const tokens = await contactPageTokens(server.baseUrl);
    const message = `Plain form message ${tokens.idempotency_key}`;
    const fields = { ...tokens, name: 'Form User', email: 'form@example.com', message };
    for (let i = 0; i < 2; i++) {
      const response = await postForm(fields);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/contact/thanks');
    }
    expect((await fetch(`${server.baseUrl}/contact/thanks`)).status).toBe(200);
    expect((await storedInbox(server.dataDir)).filter((entry) => entry.message === message)).toHaveLength(1);
  });

  it('shows each error next to its field, keeps the values escaped, and keeps the token', async () => {
    const token = await formToken();
    const response = await postForm({
      idempotency_key: token,
      name: '<script>alert(1)</script>',
      email: 'nope',
      message: 'short',
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('value="&#60;script&#62;alert(1)&#60;/script&#62;"');
    expect(html).toMatch(/id="email"[^>]*aria-invalid="true"/);
    expect(html).toMatch(/id="name"[^>]*aria-invalid="false"/);
    expect(html).toContain('id="email-error" class="field-error">Email must be a valid email address.</p>');
    expect(html).toContain('id="message-error" class="field-error">Message must be at least 10 characters.</p>');
    expect(html).toContain(`value="${token}"`);
  });

  it('offers a new token when a stale form is posted', async () => {
    const response = await postForm({
      idempotency_key: 'not-a-token',
      name: 'A',
      email: 'a@example.com',
      message: 'Hello there friend',
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('This form had expired');
  });

  it('refuses other methods with 405 and Allow', async () => {
    const response = await fetch(`${server.baseUrl}/contact`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});
