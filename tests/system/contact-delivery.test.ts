import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startApi } from '../support/api.ts';
import { postContact, readInbox, runInbox, storedInbox, VALID } from '../support/contact.ts';
import { TEST_ENGINE } from '../support/engines.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { receiver, waitFor } from '../support/webhook.ts';

describe('owner notification by webhook', () => {
  it('delivers after a restart what was stored before it, and marks a message failed after the last attempt', async () => {
    const failing = await receiver(1000);
    const first = await startServer({
      NOTIFY_WEBHOOK_URL: failing.url,
      NOTIFY_RETRY_BASE_MS: '50',
      NOTIFY_MAX_ATTEMPTS: '2',
    });
    const message = `Fail then restart ${randomUUID()}`;
    try {
      expect((await postContact(first.baseUrl, { ...VALID, message })).status).toBe(200);
      await waitFor(
        async () => (await storedInbox(first.dataDir))[0]?.deliveries.webhook?.state === 'failed',
        'the message to be marked failed',
      );
      const entry = (await storedInbox(first.dataDir))[0]!;
      expect(entry.deliveries.webhook).toMatchObject({ state: 'failed', attempts: 2, lastError: 'HTTP 500: not yet' });
      const text = await runInbox(first.dataDir);
      expect(text).toContain('webhook: FAILED after 2 attempts (HTTP 500: not yet)');
    } finally {
      await first.stop('SIGKILL');
      failing.close();
    }
    // Pending work survives a crash: a message stored while the receiver was down is sent after the restart.
    const down = await startServer(
      { NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:9/closed', NOTIFY_RETRY_BASE_MS: '1500' },
      first.dataDir,
    );
    const later = `Stored while down ${randomUUID()}`;
    expect((await postContact(down.baseUrl, { ...VALID, message: later })).status).toBe(200);
    await waitFor(
      async () =>
        (await storedInbox(down.dataDir)).find((e) => e.message === later)?.deliveries.webhook?.attempts === 1,
      'a first failed attempt',
    );
    await down.stop('SIGKILL');
    const hook = await receiver(0);
    const restarted = await startServer({ NOTIFY_WEBHOOK_URL: hook.url, NOTIFY_RETRY_BASE_MS: '50' }, first.dataDir);
    try {
      await hook.accepted(1);
      expect(hook.received[0]!.body.message).toBe(later);
      await waitFor(
        async () =>
          (await storedInbox(restarted.dataDir)).find((e) => e.message === later)?.deliveries.webhook?.state ===
          'delivered',
        'the delivery to be recorded',
      );
      // The message that had already failed for good is not retried.
      expect(hook.received.some((r) => r.body.message === message)).toBe(false);
    } finally {
      await restarted.stop();
      hook.close();
    }
  });
});

// SQLite's own lock; PostgreSQL outages are tests/system/multi-instance-faults.test.ts.
describe.skipIf(TEST_ENGINE === 'shared')('owner notification when the inbox cannot be written', () => {
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
      }, 'the bookkeeping failure in the log');
      const failure = server.logLines.find((line) => line.message === 'webhook bookkeeping failed; retrying')!;
      expect(failure).toMatchObject({
        level: 'error',
        requestId: 'notifier',
        error: 'The storage cannot be used right now: database is locked',
      });

      // The process lives on and serves.
      expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
      expect(server.process.exitCode).toBeNull();
      lock!.exec('ROLLBACK');
      lock!.close();

      await waitFor(
        async () => (await storedInbox(server!.dataDir))[0]?.deliveries.webhook?.state === 'delivered',
        'the delivery to be recorded',
      );
      expect((await storedInbox(server.dataDir))[0]!.deliveries.webhook).toEqual({
        state: 'delivered',
        attempts: 1,
        lastError: null,
        nextAttemptAt: null,
      });
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

describe('npm run inbox', () => {
  it('lists newest first, filters unread and by time, and marks as read', async () => {
    // The messages are posted in process; what is tested here is the CLI, started as the owner starts it.
    const server = await startApi();
    try {
      for (const n of [1, 2, 3])
        expect((await postContact(server.baseUrl, { ...VALID, message: `Inbox message ${n}` })).status).toBe(200);
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
