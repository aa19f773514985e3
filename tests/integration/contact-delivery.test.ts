import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContact, readInbox, runInbox, VALID } from '../support/contact.ts';
import { startServer, type RunningServer } from '../support/server.ts';

/** A local webhook receiver that fails its first `failures` posts with a 500; `onPost` runs before each answer. */
function receiver(failures: number, onPost: () => void = () => undefined) {
  const received: { headers: Record<string, unknown>; body: Record<string, unknown> }[] = [];
  let attempts = 0;
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      attempts++;
      onPost();
      if (attempts <= failures) {
        res.writeHead(500).end('not yet');
        return;
      }
      received.push({ headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
      res.writeHead(204).end();
    });
  });
  return new Promise<{ url: string; received: typeof received; attempts: () => number; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${address.port}/hook`, received, attempts: () => attempts, close: () => server.close() });
    }),
  );
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('owner notification by webhook', () => {
  it('retries with backoff and delivers a message exactly once; sandbox messages are never sent', async () => {
    const hook = await receiver(2);
    const server = await startServer({ NOTIFY_WEBHOOK_URL: hook.url, NOTIFY_RETRY_BASE_MS: '100' });
    try {
      const message = `Notify me ${randomUUID()}`;
      const started = Date.now();
      const posted = await postContact(server.baseUrl, { ...VALID, message });
      expect(posted.status).toBe(200);
      // The visitor's answer did not wait for the failing webhook.
      expect(hook.received).toHaveLength(0);
      await waitFor(() => hook.received.length === 1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(100 + 200);
      expect(hook.attempts()).toBe(3);
      expect(hook.received[0]!.body).toMatchObject({ type: 'contact.message', ...VALID, message });
      expect(hook.received[0]!.headers['idempotency-key']).toMatch(/^message-\d+$/);
      await waitFor(async () => (await readInbox(server.dataDir))[0]?.delivery.state === 'delivered');
      expect((await readInbox(server.dataDir))[0]!.delivery).toEqual({ state: 'delivered', attempts: 3, lastError: null });

      expect((await postContact(server.baseUrl, { ...VALID, message: 'A sandbox message here' }, { query: '?sandbox=true' })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(hook.received).toHaveLength(1);
    } finally {
      await server.stop();
      hook.close();
    }
  });

  it('delivers after a restart what was stored before it, and marks a message failed after the last attempt', async () => {
    const failing = await receiver(1000);
    const first = await startServer({ NOTIFY_WEBHOOK_URL: failing.url, NOTIFY_RETRY_BASE_MS: '50', NOTIFY_MAX_ATTEMPTS: '2' });
    const message = `Fail then restart ${randomUUID()}`;
    try {
      expect((await postContact(first.baseUrl, { ...VALID, message })).status).toBe(200);
      await waitFor(async () => (await readInbox(first.dataDir))[0]?.delivery.state === 'failed');
      const entry = (await readInbox(first.dataDir))[0]!;
      expect(entry.delivery).toMatchObject({ state: 'failed', attempts: 2, lastError: 'HTTP 500' });
      const text = await runInbox(first.dataDir);
      expect(text).toContain('webhook: FAILED after 2 attempts (HTTP 500)');
    } finally {
      await first.stop('SIGKILL');
      failing.close();
    }
    // Pending work survives a crash: a message stored while the receiver was down is sent after the restart.
    const down = await startServer({ NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:9/closed', NOTIFY_RETRY_BASE_MS: '1500' }, first.dataDir);
    const later = `Stored while down ${randomUUID()}`;
    expect((await postContact(down.baseUrl, { ...VALID, message: later })).status).toBe(200);
    await waitFor(async () => (await readInbox(down.dataDir)).find((e) => e.message === later)?.delivery.attempts === 1);
    await down.stop('SIGKILL');
    const hook = await receiver(0);
    const restarted = await startServer({ NOTIFY_WEBHOOK_URL: hook.url, NOTIFY_RETRY_BASE_MS: '50' }, first.dataDir);
    try {
      await waitFor(() => hook.received.length === 1);
      expect(hook.received[0]!.body.message).toBe(later);
      await waitFor(async () => (await readInbox(restarted.dataDir)).find((e) => e.message === later)?.delivery.state === 'delivered');
      // The message that had already failed for good is not retried.
      expect(hook.received.some((r) => r.body.message === message)).toBe(false);
    } finally {
      await restarted.stop();
      hook.close();
    }
  });
});

describe('owner notification when the inbox cannot be written', () => {
  it('logs, keeps serving, and records the delivery once the database is free, without posting again', async () => {
    let lock: Database.Database | undefined;
    let server: RunningServer | undefined;
    // Another writer takes the database while the webhook is being answered, and holds it past
    // the server's busy_timeout: the server cannot write that the message was delivered.
    const hook = await receiver(0, () => {
      lock = new Database(path.join(server!.dataDir, 'portfolio.db'));
      lock.exec('BEGIN IMMEDIATE');
    });
    server = await startServer({ NOTIFY_WEBHOOK_URL: hook.url, NOTIFY_RETRY_BASE_MS: '200' });
    try {
      const message = `Locked out ${randomUUID()}`;
      expect((await postContact(server.baseUrl, { ...VALID, message })).status).toBe(200);
      await waitFor(() => {
        if (server!.process.exitCode !== null) throw new Error(`the server died: ${server!.stderr()}`);
        return server!.logLines.some((line) => line.message === 'webhook bookkeeping failed; retrying');
      }, 60_000);
      const failure = server.logLines.find((line) => line.message === 'webhook bookkeeping failed; retrying')!;
      expect(failure).toMatchObject({ level: 'error', requestId: 'notifier', error: 'database is locked' });

      // The process lives on and serves.
      expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
      expect(server.process.exitCode).toBeNull();
      lock!.exec('ROLLBACK');
      lock!.close();

      await waitFor(async () => (await readInbox(server!.dataDir))[0]?.delivery.state === 'delivered', 60_000);
      expect((await readInbox(server.dataDir))[0]!.delivery).toEqual({ state: 'delivered', attempts: 1, lastError: null });
      // At least once, and here exactly once: the retry wrote the result; it did not post again.
      expect(hook.attempts()).toBe(1);
      expect(server.process.exitCode).toBeNull();
    } finally {
      lock?.close();
      await server.stop();
      hook.close();
    }
  });
});

describe('the contact form without JavaScript', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  async function formToken(): Promise<string> {
    const html = await (await fetch(`${server.baseUrl}/contact`)).text();
    return /name="idempotency_key" value="([0-9a-f-]{36})"/.exec(html)![1]!;
  }

  function postForm(fields: Record<string, string>) {
    return fetch(`${server.baseUrl}/contact`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
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
    const token = await formToken();
    const message = `Plain form message ${token}`;
    const fields = { idempotency_key: token, name: 'Form User', email: 'form@example.com', message };
    for (let i = 0; i < 2; i++) {
      const response = await postForm(fields);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/contact/thanks');
    }
    expect((await fetch(`${server.baseUrl}/contact/thanks`)).status).toBe(200);
    expect((await readInbox(server.dataDir)).filter((entry) => entry.message === message)).toHaveLength(1);
  });

  it('shows each error next to its field, keeps the values escaped, and keeps the token', async () => {
    const token = await formToken();
    const response = await postForm({ idempotency_key: token, name: '<script>alert(1)</script>', email: 'nope', message: 'short' });
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
    const response = await postForm({ idempotency_key: 'not-a-token', name: 'A', email: 'a@example.com', message: 'Hello there friend' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('This form had expired');
  });

  it('refuses other methods with 405 and Allow', async () => {
    const response = await fetch(`${server.baseUrl}/contact`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});

describe('npm run inbox', () => {
  it('lists newest first, filters unread and by time, and marks as read', async () => {
    const server = await startServer();
    try {
      for (const n of [1, 2, 3]) expect((await postContact(server.baseUrl, { ...VALID, message: `Inbox message ${n}` })).status).toBe(200);
      const all = await readInbox(server.dataDir);
      expect(all.map((entry) => entry.message)).toEqual(['Inbox message 3', 'Inbox message 2', 'Inbox message 1']);
      expect(await readInbox(server.dataDir, '--since', '2999-01-01')).toEqual([]);
      expect(await readInbox(server.dataDir, '--since', '1h')).toHaveLength(3);
      expect(await readInbox(server.dataDir, '--limit', '1')).toHaveLength(1);
      await readInbox(server.dataDir, '--limit', '2', '--mark-read');
      const unread = await readInbox(server.dataDir, '--unread');
      expect(unread.map((entry) => entry.message)).toEqual(['Inbox message 1']);
      await expect(readInbox(server.dataDir, '--since', 'yesterday-ish')).rejects.toThrow(/--since/);
    } finally {
      await server.stop();
    }
  });
});
