import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Notifier } from '../../functions/contact/notifier.ts';
import { WebhookSender } from '../../functions/contact/webhook-sender.ts';
import { openSqliteStorage } from '../../functions/state/sqlite/sqlite-storage.ts';
import { storeMessage } from '../support/stored-message.ts';

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

describe('Notifier', () => {
  it('retries, with backoff and no rejection left unhandled, when the inbox cannot be read or written, and posts each message once', async () => {
    const receiver = await hook();
    const storage = openSqliteStorage(mkdtempSync(path.join(tmpdir(), 'notifier-')), { idempotencyTtlMs: 60_000 });
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
    const notifier = new Notifier(messages, new WebhookSender(receiver.url, null), { retryBaseMs: 5, maxAttempts: 3 });
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
});
