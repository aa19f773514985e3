import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../../functions/state/sqlite/migrations.ts';
import { openSqliteStorage } from '../../functions/state/sqlite/sqlite-storage.ts';

it('moves the webhook state of an existing inbox into the outbox, and gives other messages no delivery', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'outbox-migration-'));
  const db = new Database(path.join(dataDir, 'portfolio.db'));
  // The schema before the outbox (version 4), with one message in each notification state it knew.
  for (const sql of MIGRATIONS.slice(0, 4)) db.exec(sql);
  db.pragma('user_version = 4');
  const insert = db.prepare(
    `INSERT INTO messages (sandbox, name, email, message, created_at, notify_state, notify_attempts, notify_next_at, notify_last_error)
     VALUES (?, 'Ada', 'ada@example.com', ?, ?, ?, ?, ?, ?)`,
  );
  insert.run(0, 'delivered', 1, 'delivered', 1, null, null);
  insert.run(0, 'pending', 2, 'pending', 2, 5000, 'HTTP 500');
  insert.run(0, 'failed', 3, 'failed', 10, null, 'HTTP 404');
  insert.run(0, 'not configured', 4, 'not_configured', 0, null, null);
  insert.run(1, 'sandbox', 5, 'sandbox', 0, null, null);
  db.close();

  const storage = await openSqliteStorage(dataDir, { idempotencyTtlMs: 60_000 });
  try {
    const live = await storage.messages.list({ sandbox: false });
    expect(Object.fromEntries(live.map((message) => [message.message, message.deliveries]))).toEqual({
      delivered: { webhook: { state: 'delivered', attempts: 1, nextAt: null, lastError: null } },
      pending: { webhook: { state: 'pending', attempts: 2, nextAt: 5000, lastError: 'HTTP 500' } },
      failed: { webhook: { state: 'failed', attempts: 10, nextAt: null, lastError: 'HTTP 404' } },
      'not configured': {},
    });
    expect((await storage.messages.list({ sandbox: true }))[0]!.deliveries).toEqual({});
    expect(await storage.messages.nextDeliveryAt('webhook')).toBe(5000);
  } finally {
    await storage.close();
  }
});
