import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Notifier } from '../../functions/contact/notifier.ts';
import { openDatabase } from '../../functions/state/database.ts';
import { MessageStore } from '../../functions/contact/message-store.ts';

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

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

// A rejection nobody handles fails the run: vitest reports it as an error.
afterEach(() => vi.restoreAllMocks());

describe('Notifier', () => {
  it('retries, with backoff and no rejection left unhandled, when the inbox cannot be read or written, and posts each message once', async () => {
    const receiver = await hook();
    const messages = new MessageStore(openDatabase(mkdtempSync(path.join(tmpdir(), 'notifier-'))));
    const id = messages.insert(
      { sandbox: false, name: 'Ada', email: 'ada@example.com', message: 'Hello there, Ada.' },
      'pending',
    );
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    // The first read of due messages fails, then the first write of a result, then the read of the next due time.
    const due = vi.spyOn(messages, 'dueForNotification').mockImplementationOnce(() => {
      throw diskFull();
    });
    const recorded = vi.spyOn(messages, 'recordDelivery').mockImplementationOnce(() => {
      throw diskFull();
    });
    const next = vi.spyOn(messages, 'nextNotificationAt').mockImplementationOnce(() => {
      throw diskFull();
    });
    const notifier = new Notifier(messages, { webhookUrl: receiver.url, retryBaseMs: 5, maxAttempts: 3 });
    try {
      notifier.wake();
      await until(() => messages.list({ sandbox: false })[0]?.notifyState === 'delivered');
      expect(due.mock.calls.length).toBeGreaterThanOrEqual(2);
      expect(recorded).toHaveBeenCalledTimes(2);
      expect(next).toHaveBeenCalled();
      expect(receiver.posts()).toBe(1);
      expect(messages.list({ sandbox: false })[0]).toMatchObject({ id, notifyState: 'delivered', notifyAttempts: 1 });
    } finally {
      notifier.stop();
      receiver.close();
    }
  });
});
