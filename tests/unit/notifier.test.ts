import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmailSender } from '../../functions/contact/email-sender.ts';
import { Notifier } from '../../functions/contact/notifier.ts';
import { WebhookSender } from '../../functions/contact/webhook-sender.ts';
import { openSqliteStorage } from '../../functions/state/sqlite/sqlite-storage.ts';
import { startMailbox, startTrickler } from '../support/smtp.ts';
import { storeMessage } from '../support/stored-message.ts';
import { waitFor } from '../support/webhook.ts';

/** What better-sqlite3 throws on a full disk. */
function diskFull(): Error {
  return Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

async function hook() {
  let posts = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, posts: () => posts, close: () => server.close() };
}

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}

// A rejection nobody handles fails the run: vitest reports it as an error.
afterEach(() => vi.restoreAllMocks());

/** The email send limit in the trickle test; the test's own timeout, a hang-catcher, is well above it. */
const SEND_LIMIT_MS = 10_000;

describe('Notifier', () => {
  it('retries, with backoff and no rejection left unhandled, when the inbox cannot be read or written, and posts each message once', async () => {
    const receiver = await hook();
    const storage = await openSqliteStorage(mkdtempSync(path.join(tmpdir(), 'notifier-')), {
      idempotencyTtlMs: 60_000,
    });
    const messages = storage.messages;
    const id = await storeMessage(
      storage,
      { sandbox: false, name: 'Ada', email: 'ada@example.com', message: 'Hello there, Ada.' },
      ['webhook'],
    );
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    // The first read of due messages fails, then the first write of a result, then the read of the next due time.
    const due = vi.spyOn(messages, 'claimDue').mockRejectedValueOnce(diskFull());
    const recorded = vi.spyOn(messages, 'recordDelivery').mockRejectedValueOnce(diskFull());
    const next = vi.spyOn(messages, 'nextDeliveryAt').mockRejectedValueOnce(diskFull());
    const notifier = new Notifier(messages, new WebhookSender(receiver.url, null), {
      retryBaseMs: 5,
      maxAttempts: 3,
      spamCommand: 'npm run inbox -- --spam',
    });
    try {
      notifier.wake();
      await until(async () => (await messages.list({ sandbox: false }))[0]?.deliveries.webhook?.state === 'delivered');
      expect(due.mock.calls.length).toBeGreaterThanOrEqual(2);
      expect(recorded).toHaveBeenCalledTimes(2);
      expect(next).toHaveBeenCalled();
      expect(receiver.posts()).toBe(1);
      expect((await messages.list({ sandbox: false }))[0]).toMatchObject({
        id,
        deliveries: { webhook: { state: 'delivered', attempts: 1, nextAt: null, lastError: null } },
      });
    } finally {
      await notifier.stop();
      receiver.close();
      await storage.close();
    }
  });

  it('gives up a mail whose SMTP server trickles its reply once the time limit passes, says so, and still delivers the webhook and the other mail', async () => {
    const receiver = await hook();
    const mailbox = await startMailbox();
    const trickler = await startTrickler(mailbox, 1);
    const storage = await openSqliteStorage(mkdtempSync(path.join(tmpdir(), 'notifier-')), {
      idempotencyTtlMs: 60_000,
    });
    const { messages } = storage;
    const store = (text: string) =>
      storeMessage(storage, { sandbox: false, name: 'Ada', email: 'ada@example.com', message: text }, [
        'webhook',
        'email',
      ]);
    const first = await store('The first message, trickled.');
    const second = await store('The second message, mailed.');
    const log: Record<string, unknown>[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      for (const line of String(chunk).split('\n'))
        if (line !== '') log.push(JSON.parse(line) as Record<string, unknown>);
      return true;
    });
    const email = {
      smtpUrl: trickler.url,
      to: 'owner@example.com',
      from: 'site@example.com',
      inboxCommand: 'npm run inbox',
    };
    const options = { retryBaseMs: 10 * 60_000, maxAttempts: 3, spamCommand: 'npm run inbox -- --spam' };
    const notifiers = [
      // The limit must let an honest mail through the pass-through on a busy machine.
      new Notifier(messages, new EmailSender(email, 'http://localhost:4321', SEND_LIMIT_MS), options),
      new Notifier(messages, new WebhookSender(receiver.url, null), options),
    ];
    const delivery = async (id: number) =>
      (await messages.list({ sandbox: false })).find((message) => message.id === id)!.deliveries;
    try {
      for (const notifier of notifiers) notifier.wake();
      await waitFor(() => mailbox.mails.length === 1 && receiver.posts() === 2, 'the second mail and both posts');
      expect(mailbox.mails[0]!.headers['message-id']).toBe(`<message-${second}@localhost>`);
      expect(trickler.stalled()).toBe(1);
      // The stalled connection was dropped by the sender, not left to trickle on.
      await waitFor(() => trickler.closedByClient() === 1, 'the trickled connection to be closed');
      await waitFor(async () => (await delivery(second)).email?.state === 'delivered', 'the mail recorded');
      const stalled = (await delivery(first)).email!;
      expect(stalled).toMatchObject({ state: 'pending', attempts: 1 });
      expect(stalled.lastError).toMatch(`within ${SEND_LIMIT_MS / 1000} s: connection closed`);
      expect((await delivery(first)).webhook?.state).toBe('delivered');
      const warnings = log.filter((line) => line.message === 'email delivery failed');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 'warning', channel: 'email', messageId: first, attempt: 1 });
      expect(Date.parse(String(warnings[0]!.nextAttemptAt))).toBe(stalled.nextAt);
    } finally {
      for (const notifier of notifiers) await notifier.stop();
      receiver.close();
      await trickler.close();
      await mailbox.close();
      await storage.close();
    }
  }, 60_000);
});
