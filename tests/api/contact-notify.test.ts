import { createHmac, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startApi } from '../support/api.ts';
import { postContact, runInboxOutput, storedInbox, VALID } from '../support/contact.ts';
import { emailEnv, startMailbox } from '../support/smtp.ts';
import { floodingReceiver, receiver, redirectingReceiver, waitFor } from '../support/webhook.ts';

/** The JSON log lines this process writes from now on (the API runs in process). */
function captureLog(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n')) {
      if (line.startsWith('{"time"')) lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    return true;
  });
  return lines;
}

afterEach(() => vi.restoreAllMocks());

// The owner's email, through a real SMTP server in this process; a restart of the server process
// is in tests/system/contact-notify.test.ts.
describe('owner notification by email', () => {
  it('mails each live message to the owner, Reply-To the visitor, with a stable Message-ID; never a sandbox one', async () => {
    const mailbox = await startMailbox();
    const server = await startApi({ ...emailEnv(mailbox), NOTIFY_RETRY_BASE_MS: '50' });
    try {
      const message = `Mail me ${randomUUID()}\nSecond line.`;
      // A name with a line break and an angle bracket: it must not make a header or a recipient of its own.
      const name = 'Grace "Amazing" Hopper\r\nBcc: victim@example.com <x>';
      expect((await postContact(server.baseUrl, { ...VALID, name, message })).status).toBe(200);
      await waitFor(() => mailbox.mails.length === 1, 'the mail');
      const [mail] = mailbox.mails;
      const [stored] = await storedInbox(server.dataDir);
      expect(mail!.from).toBe('site@example.com');
      expect(mail!.to).toEqual(['owner@example.com']);
      expect(mail!.headers.from).toBe('Portfolio <site@example.com>');
      expect(mail!.headers.to).toBe('owner@example.com');
      expect(mail!.headers['reply-to']).toContain('<grace@example.com>');
      expect(mail!.headers.bcc).toBeUndefined();
      expect(mail!.headers.subject).toBe(`Contact message from Grace "Amazing" Hopper Bcc: victim@example.com <x>`);
      expect(mail!.headers['message-id']).toBe(`<message-${stored!.id}@localhost>`);
      expect(mail!.body).toContain(`Mail me`);
      expect(mail!.body).toContain('Second line.');
      expect(mail!.body).toContain('http://localhost:4321/contact');
      await waitFor(
        async () => (await storedInbox(server.dataDir))[0]?.deliveries.email?.state === 'delivered',
        'the delivery to be recorded',
      );
      expect((await storedInbox(server.dataDir))[0]!.deliveries).toEqual({
        email: { state: 'delivered', attempts: 1, lastError: null, nextAttemptAt: null },
      });

      expect(
        (await postContact(server.baseUrl, { ...VALID, message: 'A sandbox message here' }, { query: '?sandbox=true' }))
          .status,
      ).toBe(200);
      expect((await storedInbox(server.dataDir, { sandbox: true }))[0]!.deliveries).toEqual({});
      // A live message after it is mailed, so the sandbox one had every chance to be mailed before.
      expect((await postContact(server.baseUrl, { ...VALID, message: 'After the sandbox one' })).status).toBe(200);
      await waitFor(() => mailbox.mails.length === 2, 'the second mail');
      expect(mailbox.mails.map((m) => m.body).some((body) => body.includes('sandbox message'))).toBe(false);
      expect(mailbox.attempts()).toBe(2);
    } finally {
      await server.stop();
      await mailbox.close();
    }
  });

  it('retries with backoff when the SMTP server refuses, counts the attempts and logs each failure as a warning', async () => {
    const mailbox = await startMailbox();
    mailbox.refuse(2);
    const log = captureLog();
    const server = await startApi({ ...emailEnv(mailbox), NOTIFY_RETRY_BASE_MS: '100' });
    try {
      const started = Date.now();
      expect((await postContact(server.baseUrl, { ...VALID, message: `Refused twice ${randomUUID()}` })).status).toBe(
        200,
      );
      await waitFor(() => mailbox.mails.length === 1, 'the mail');
      expect(Date.now() - started).toBeGreaterThanOrEqual(100 + 200);
      expect(mailbox.attempts()).toBe(3);
      await waitFor(
        async () => (await storedInbox(server.dataDir))[0]?.deliveries.email?.state === 'delivered',
        'the delivery to be recorded',
      );
      expect((await storedInbox(server.dataDir))[0]!.deliveries.email).toMatchObject({
        state: 'delivered',
        attempts: 3,
      });
      const warnings = log.filter((line) => line.message === 'email delivery failed');
      expect(warnings).toHaveLength(2);
      for (const [index, warning] of warnings.entries()) {
        expect(warning).toMatchObject({ level: 'warning', channel: 'email', attempt: index + 1 });
        expect(String(warning.error)).toMatch(/451/);
        expect(Date.parse(String(warning.nextAttemptAt))).toBeGreaterThan(Date.parse(String(warning.time)));
      }
    } finally {
      await server.stop();
      await mailbox.close();
    }
  });

  it('does not mail messages stored before email was configured, until npm run inbox -- --redeliver', async () => {
    const before = await startApi();
    const old = `Before email ${randomUUID()}`;
    try {
      expect((await postContact(before.baseUrl, { ...VALID, message: old })).status).toBe(200);
    } finally {
      await before.stop();
    }
    const mailbox = await startMailbox();
    const server = await startApi({ ...emailEnv(mailbox), NOTIFY_RETRY_BASE_MS: '50' }, before.dataDir);
    try {
      expect((await postContact(server.baseUrl, { ...VALID, message: `After email ${randomUUID()}` })).status).toBe(
        200,
      );
      await waitFor(() => mailbox.mails.length === 1, 'the new message mailed');
      expect(mailbox.mails[0]!.body).not.toContain(old);
      const oldEntry = (await storedInbox(server.dataDir)).find((entry) => entry.message === old)!;
      expect(oldEntry.deliveries).toEqual({});

      const requeued = await runInboxOutput(emailEnv(mailbox), server.dataDir, '--redeliver', String(oldEntry.id));
      expect(requeued.stderr).toContain(`Queued #${oldEntry.id} for email (never sent there).`);
      expect(requeued.stdout).toContain('email: pending (0 attempts');
      // Asked again, nothing more is queued: it is pending already.
      const again = await runInboxOutput(emailEnv(mailbox), server.dataDir, '--redeliver', String(oldEntry.id));
      expect(again.stderr).toContain('Nothing to queue');
      // The running server finds it at its next look (a new message wakes it; otherwise within a minute).
      expect((await postContact(server.baseUrl, { ...VALID, message: `Wake up ${randomUUID()}` })).status).toBe(200);
      await waitFor(() => mailbox.mails.some((mail) => mail.body.includes(old)), 'the old message mailed');
      await waitFor(
        async () =>
          (await storedInbox(server.dataDir)).find((entry) => entry.message === old)?.deliveries.email?.state ===
          'delivered',
        'the redelivery to be recorded',
      );
    } finally {
      await server.stop();
      await mailbox.close();
    }
  });
});

describe('owner notification by webhook: signature and text', () => {
  it('signs each post with the documented scheme, which a wrong secret does not verify', async () => {
    const hook = await receiver(0);
    const secret = `whsec-${randomUUID()}`;
    const server = await startApi({ NOTIFY_WEBHOOK_URL: hook.url, NOTIFY_WEBHOOK_SECRET: secret });
    try {
      const message = `Signed ${randomUUID()}`;
      expect((await postContact(server.baseUrl, { ...VALID, message })).status).toBe(200);
      await hook.accepted(1);
      const [post] = hook.received;
      const header = String(post!.headers['portfolio-signature']);
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      expect(match, header).not.toBeNull();
      const [, t, v1] = match!;
      expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(60);
      const sign = (key: string, body: string) => createHmac('sha256', key).update(`${t}.${body}`).digest('hex');
      expect(sign(secret, post!.raw)).toBe(v1);
      expect(sign('a wrong secret', post!.raw)).not.toBe(v1);
      expect(sign(secret, post!.raw.replace('Signed', 'Forged'))).not.toBe(v1);
      expect(post!.body).toMatchObject({
        type: 'contact.message',
        ...VALID,
        message,
        text: `New message #${String(post!.body.id)} from ${VALID.name} &lt;${VALID.email}&gt;: ${message}`,
      });
      expect(post!.headers['idempotency-key']).toBe(`message-${String(post!.body.id)}`);
      // A plain body with its length, not chunks: some receivers refuse chunked posts.
      expect(post!.headers['content-length']).toBe(String(Buffer.byteLength(post!.raw)));
      expect(post!.headers['transfer-encoding']).toBeUndefined();
    } finally {
      await server.stop();
      hook.close();
    }
  });

  it('posts without a signature when no secret is set, and says so at start', async () => {
    const hook = await receiver(0);
    const log = captureLog();
    const server = await startApi({ NOTIFY_WEBHOOK_URL: hook.url });
    try {
      expect(log.find((line) => /unsigned/.test(String(line.message)))).toMatchObject({ level: 'warning' });
      expect((await postContact(server.baseUrl, { ...VALID, message: `Unsigned ${randomUUID()}` })).status).toBe(200);
      await hook.accepted(1);
      expect(hook.received[0]!.headers['portfolio-signature']).toBeUndefined();
    } finally {
      await server.stop();
      hook.close();
    }
  });
});

describe('owner notification by webhook: what the receiver answers, and mentions', () => {
  it('reads a few KB of an answer that does not end, then drops the connection; the 200 counts as delivered', async () => {
    const cap = 64 * 1024 * 1024;
    const flood = await floodingReceiver(cap);
    const server = await startApi({ NOTIFY_WEBHOOK_URL: flood.url, NOTIFY_RETRY_BASE_MS: '60000' });
    try {
      expect((await postContact(server.baseUrl, { ...VALID, message: `Flood me ${randomUUID()}` })).status).toBe(200);
      await flood.closed;
      await waitFor(
        async () => (await storedInbox(server.dataDir))[0]?.deliveries.webhook?.state === 'delivered',
        'the delivery to be recorded',
      );
      // What the receiver got into the socket before it closed is what the kernel's buffers hold
      // once the reader stops reading (a few MB at most on loopback), never the whole stream.
      expect(flood.written()).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await server.stop();
      flood.close();
    }
  });

  it.each([301, 302, 307, 308])(
    'does not follow a %i redirect with the signed body: a failed attempt, and the other receiver gets nothing',
    async (status) => {
      const elsewhere = await receiver(0);
      const redirect = await redirectingReceiver(status, elsewhere.url);
      const server = await startApi({
        NOTIFY_WEBHOOK_URL: redirect.url,
        NOTIFY_WEBHOOK_SECRET: `whsec-${randomUUID()}`,
        NOTIFY_RETRY_BASE_MS: '60000',
      });
      try {
        expect((await postContact(server.baseUrl, { ...VALID, message: `Redirect me ${randomUUID()}` })).status).toBe(
          200,
        );
        await waitFor(
          async () => (await storedInbox(server.dataDir))[0]?.deliveries.webhook?.attempts === 1,
          'the attempt to be recorded',
        );
        const delivery = (await storedInbox(server.dataDir))[0]!.deliveries.webhook!;
        expect(delivery.state).toBe('pending');
        expect(delivery.lastError).toBe(
          `HTTP ${status}: redirects are not followed, the signed body goes only to NOTIFY_WEBHOOK_URL (Location: ${elsewhere.url})`,
        );
        expect(redirect.attempts()).toBe(1);
        expect(elsewhere.attempts()).toBe(0);
      } finally {
        await server.stop();
        redirect.close();
        elsewhere.close();
      }
    },
  );

  it('escapes Slack and Discord mentions in text, and keeps the fields as typed', async () => {
    const hook = await receiver(0);
    const server = await startApi({ NOTIFY_WEBHOOK_URL: hook.url });
    try {
      const name = 'Mallory <!channel>';
      const message = 'Hi <!here> and <@U123>, @everyone @here @channel: Q&A <b>now</b>';
      expect((await postContact(server.baseUrl, { ...VALID, name, message })).status).toBe(200);
      await hook.accepted(1);
      const { body } = hook.received[0]!;
      expect(body).toMatchObject({ name, message });
      expect(body.text).toBe(
        `New message #${String(body.id)} from Mallory &lt;!channel&gt; &lt;${VALID.email}&gt;: ` +
          'Hi &lt;!here&gt; and &lt;@U123&gt;, @\u200beveryone @\u200bhere @\u200bchannel: Q&amp;A &lt;b&gt;now&lt;/b&gt;',
      );
    } finally {
      await server.stop();
      hook.close();
    }
  });
});
