import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../../functions/state/sqlite/migrations.ts';
import { openSqliteStorage } from '../../functions/state/sqlite/sqlite-storage.ts';

/** The version before SQLite's tables were made anew with their CHECK constraints. */
const BEFORE_CHECKS = 7;
/** The version before jobs, api_keys and sandbox_shares were made anew with keys that cannot be NULL. */
const BEFORE_NOT_NULL_KEYS = 8;
const T = 1_800_000_000_000;

/**
 * The schema as SQLite describes it: every table, index and trigger by name, with the SQL of each
 * index and trigger (a table's SQL is its columns, compared apart, and now its CHECKs).
 */
function schemaOf(db: Database.Database): Record<string, string | null> {
  const rows = db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY name")
    .all() as { type: string; name: string; sql: string | null }[];
  return Object.fromEntries(rows.map((row) => [`${row.type} ${row.name}`, row.type === 'table' ? null : row.sql]));
}

interface Column {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

const columnsOf = (db: Database.Database, table: string) =>
  db.prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)').all(table) as Column[];

it('keeps every message, delivery, answer, share and index when the tables are made anew with their CHECKs', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'check-migration-'));
  const db = new Database(path.join(dataDir, 'portfolio.db'));
  db.pragma('foreign_keys = ON');
  for (const sql of MIGRATIONS.slice(0, BEFORE_CHECKS)) db.exec(sql);
  db.pragma(`user_version = ${BEFORE_CHECKS}`);
  const insert = db.prepare(
    `INSERT INTO messages (sandbox, name, email, message, created_at, folder, spam_reasons, sandbox_client, sandbox_key, size_bytes)
     VALUES (?, 'Ada', 'ada@example.com', ?, ?, ?, ?, ?, ?, ?)`,
  );
  const live = Number(insert.run(0, 'live', T, 'inbox', null, null, null, 0).lastInsertRowid);
  const junk = Number(insert.run(0, 'junk', T + 1, 'spam', '["link-heavy"]', null, null, 0).lastInsertRowid);
  insert.run(1, 'test', T + 2, 'inbox', null, '192.0.2.1', 'k1', 10);
  const newest = Number(insert.run(0, 'deleted', T + 3, 'inbox', null, null, null, 0).lastInsertRowid);
  db.prepare('DELETE FROM messages WHERE id = ?').run(newest);
  db.prepare(
    "INSERT INTO deliveries (message_id, channel, state, attempts, next_at, last_error) VALUES (?, 'webhook', 'failed', 3, NULL, 'HTTP 500'), (?, 'email', 'pending', 1, ?, NULL)",
  ).run(live, live, T + 60_000);
  const answer = db.prepare(
    'INSERT INTO idempotency (scope, sandbox, key, fingerprint, state, status, body, created_at, expires_at) VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?)',
  );
  answer.run('contact', 'answered', 'fp', 'done', 200, '{"id":1}', T, T + 60_000);
  // A claim an earlier version left behind, with no answer.
  answer.run('contact', 'abandoned', null, 'in_progress', null, null, T, T + 60_000);
  const before = { schema: schemaOf(db), messages: columnsOf(db, 'messages'), deliveries: columnsOf(db, 'deliveries') };
  const idempotencyColumns = columnsOf(db, 'idempotency');
  db.close();

  const storage = await openSqliteStorage(dataDir, { idempotencyTtlMs: 60_000 });
  try {
    const inbox = await storage.messages.list({ sandbox: false });
    expect(inbox).toEqual([
      expect.objectContaining({
        id: live,
        message: 'live',
        createdAt: T,
        deliveries: {
          webhook: { state: 'failed', attempts: 3, nextAt: null, lastError: 'HTTP 500' },
          email: { state: 'pending', attempts: 1, nextAt: T + 60_000, lastError: null },
        },
      }),
    ]);
    expect(await storage.messages.list({ sandbox: false, folder: 'spam' })).toEqual([
      expect.objectContaining({ id: junk, spamReasons: ['link-heavy'] }),
    ]);
    expect(await storage.idempotency.claim({ scope: 'contact', sandbox: false, key: 'answered' }, 1000, T)).toEqual({
      kind: 'recorded',
      answer: { fingerprint: 'fp', status: 200, body: '{"id":1}' },
    });
    expect(await storage.messages.moveToInbox([junk], ['webhook'], T)).toEqual([junk]);
    const claim = await storage.idempotency.claim({ scope: 'contact', sandbox: true, key: 'new' }, 1000, T);
    if (claim.kind !== 'claimed') throw new Error('expected a claim');
    const stored = await storage.messages.storeSubmission(
      {
        ref: { scope: 'contact', sandbox: true, key: 'new' },
        token: claim.token,
        message: { sandbox: true, name: 'Ada', email: 'ada@example.com', message: 'second test' },
        channels: [],
        answer: { fingerprint: 'fp2', status: 200, body: '{}' },
        // The share of 192.0.2.1 already holds the 10 bytes of "test": with 10 more it is over 15, so "test" goes.
        sandboxShare: { client: '192.0.2.1', key: null, bytes: 10, maxBytes: 15 },
      },
      T + 10,
    );
    // The id of the message deleted before the migration is not given again.
    expect(stored).toEqual({ stored: true, id: newest + 1 });
    expect((await storage.messages.list({ sandbox: true })).map((message) => message.message)).toEqual(['second test']);
  } finally {
    await storage.close();
  }

  const after = new Database(path.join(dataDir, 'portfolio.db'));
  try {
    expect(after.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(schemaOf(after)).toEqual(before.schema);
    expect(columnsOf(after, 'messages')).toEqual(before.messages);
    expect(columnsOf(after, 'deliveries')).toEqual(before.deliveries);
    expect(columnsOf(after, 'idempotency')).toEqual(idempotencyColumns);
    expect(after.pragma('foreign_key_list(deliveries)')).toEqual([
      expect.objectContaining({ table: 'messages', from: 'message_id', to: 'id', on_delete: 'CASCADE' }),
    ]);
    expect(after.pragma('foreign_key_check')).toEqual([]);
    expect(after.prepare('SELECT key, state FROM idempotency ORDER BY key').all()).toEqual([
      { key: 'answered', state: 'done' },
      { key: 'new', state: 'done' },
    ]);
    expect(after.prepare('SELECT owner, bytes FROM sandbox_shares').all()).toEqual([
      { owner: 'client:192.0.2.1', bytes: 10 },
    ]);
    // Deleting a message still deletes its deliveries.
    after.pragma('foreign_keys = ON');
    after.prepare('DELETE FROM messages WHERE id = ?').run(live);
    expect(after.prepare('SELECT COUNT(*) AS left FROM deliveries').get()).toEqual({ left: 1 });
  } finally {
    after.close();
  }
});

it('keeps every job, key and share when their tables are made anew with a key that cannot be NULL', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'not-null-migration-'));
  const db = new Database(path.join(dataDir, 'portfolio.db'));
  db.pragma('foreign_keys = ON');
  for (const sql of MIGRATIONS.slice(0, BEFORE_NOT_NULL_KEYS)) db.exec(sql);
  db.pragma(`user_version = ${BEFORE_NOT_NULL_KEYS}`);
  db.prepare(
    `INSERT INTO jobs (id, sandbox, task, input, status, progress, result, error, created_at, updated_at, expires_at, owner, locked_by, lease_until, attempts)
     VALUES ('job_1', 0, 'summarize', '{}', 'running', 0.5, NULL, NULL, ?, ?, ?, '192.0.2.1', 'host:1', ?, 1)`,
  ).run(T, T + 1, T + 60_000, T + 30_000);
  db.prepare(
    "INSERT INTO api_keys (id, hash, label, created_in_sandbox, created_at, expires_at) VALUES ('key_1', 'h', 'ci', 1, ?, ?)",
  ).run(T, T + 60_000);
  db.prepare(
    "INSERT INTO messages (sandbox, name, email, message, created_at, sandbox_client, sandbox_key, size_bytes) VALUES (1, 'Ada', 'a@example.com', 'test', ?, '192.0.2.1', NULL, 10)",
  ).run(T);
  const rowsOf = (database: Database.Database) => ({
    jobs: database.prepare('SELECT * FROM jobs').all(),
    keys: database.prepare('SELECT * FROM api_keys').all(),
    shares: database.prepare('SELECT * FROM sandbox_shares').all(),
  });
  const before = { schema: schemaOf(db), rows: rowsOf(db), jobs: columnsOf(db, 'jobs') };
  db.close();

  await (await openSqliteStorage(dataDir, { idempotencyTtlMs: 60_000 })).close();

  const after = new Database(path.join(dataDir, 'portfolio.db'));
  try {
    expect(after.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(schemaOf(after)).toEqual(before.schema);
    expect(rowsOf(after)).toEqual(before.rows);
    // The same columns in the same order; only the key now refuses NULL.
    expect(columnsOf(after, 'jobs')).toEqual(
      before.jobs.map((column) => (column.pk === 1 ? { ...column, notnull: 1 } : column)),
    );
    // The triggers that keep the shares were made again: a new sandbox message still counts.
    after
      .prepare(
        "INSERT INTO messages (sandbox, name, email, message, created_at, sandbox_client, sandbox_key, size_bytes) VALUES (1, 'Ada', 'a@example.com', 'more', ?, '192.0.2.1', NULL, 5)",
      )
      .run(T + 1);
    expect(after.prepare('SELECT owner, bytes FROM sandbox_shares').all()).toEqual([
      { owner: 'client:192.0.2.1', bytes: 15 },
    ]);
  } finally {
    after.close();
  }
});
