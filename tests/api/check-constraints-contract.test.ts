import { afterAll, describe, expect, it } from 'vitest';
import { closeOpened, STORE_ENGINES } from '../support/store-engines.ts';
import { storeMessage } from '../support/stored-message.ts';

/**
 * The schema's CHECK constraints, the same on each engine: a row with a folder, a delivery state
 * or a claim state that no code writes is refused, whether inserted or updated into, while the
 * same statement with a value the code does write is stored; and no row goes without its key.
 * Raw SQL, past the stores.
 */
const T = 1_800_000_000_000;

/** How each engine names a broken CHECK constraint. */
const CHECK_VIOLATION = { SQLite: 'SQLITE_CONSTRAINT_CHECK', PostgreSQL: '23514' };

/** How each engine names a NULL where the schema says NOT NULL. */
const NOT_NULL_VIOLATION = { SQLite: 'SQLITE_CONSTRAINT_NOTNULL', PostgreSQL: '23502' };

/**
 * A row of each table whose primary key is one text column, with that key as the one parameter.
 * Booleans are written '0', which both engines read as false.
 */
const KEYED_ROWS = {
  jobs: "INSERT INTO jobs (id, sandbox, owner, task, input, status, created_at, updated_at, expires_at) VALUES (?, '0', '', 'summarize', '{}', 'pending', 0, 0, 0)",
  api_keys:
    "INSERT INTO api_keys (id, hash, label, created_in_sandbox, created_at, expires_at) VALUES (?, 'hash', NULL, '0', 0, 0)",
  sandbox_shares: 'INSERT INTO sandbox_shares (owner, bytes) VALUES (?, 0)',
};

afterAll(closeOpened);

describe.each(STORE_ENGINES)('CHECK constraints on $name', ({ name, skip, open, sql }) => {
  const refused = { code: CHECK_VIOLATION[name] };

  it.skipIf(skip)('refuses a message in a folder other than the inbox and spam', async () => {
    const storage = await open();
    const id = await storeMessage(
      storage,
      { sandbox: false, name: 'Ada', email: 'a@example.com', message: 'Hi' },
      [],
      'k',
      T,
    );
    const copyInto = (folder: string) =>
      sql(
        storage,
        'INSERT INTO messages (sandbox, name, email, message, created_at, folder) SELECT sandbox, name, email, message, created_at, ? FROM messages WHERE id = ?',
        folder,
        id,
      );
    await expect(copyInto('archive')).rejects.toMatchObject(refused);
    await expect(sql(storage, 'UPDATE messages SET folder = ? WHERE id = ?', 'archive', id)).rejects.toMatchObject(
      refused,
    );
    await copyInto('spam');
    await sql(storage, 'UPDATE messages SET folder = ? WHERE id = ?', 'spam', id);
    expect(await storage.messages.list({ sandbox: false, folder: 'spam' })).toHaveLength(2);
  });

  it.skipIf(skip)('refuses a delivery in a state other than pending, delivered and failed', async () => {
    const storage = await open();
    const id = await storeMessage(
      storage,
      { sandbox: false, name: 'Ada', email: 'a@example.com', message: 'Hi' },
      ['webhook'],
      'k',
      T,
    );
    const insert = (state: string) =>
      sql(
        storage,
        "INSERT INTO deliveries (message_id, channel, state, attempts) VALUES (?, 'email', ?, 0)",
        id,
        state,
      );
    await expect(insert('lost')).rejects.toMatchObject(refused);
    await expect(
      sql(storage, "UPDATE deliveries SET state = ? WHERE message_id = ? AND channel = 'webhook'", 'sent', id),
    ).rejects.toMatchObject(refused);
    await insert('failed');
    await sql(storage, "UPDATE deliveries SET state = ? WHERE message_id = ? AND channel = 'webhook'", 'delivered', id);
    const [message] = await storage.messages.list({ sandbox: false });
    expect([message?.deliveries.webhook?.state, message?.deliveries.email?.state]).toEqual(['delivered', 'failed']);
  });

  it.skipIf(skip)('refuses an Idempotency-Key record in a state other than in flight and done', async () => {
    const storage = await open();
    await storeMessage(storage, { sandbox: false, name: 'Ada', email: 'a@example.com', message: 'Hi' }, [], 'k', T);
    const copyAs = (key: string, state: string) =>
      sql(
        storage,
        'INSERT INTO idempotency (scope, sandbox, key, state, created_at, expires_at) SELECT scope, sandbox, ?, ?, created_at, expires_at FROM idempotency',
        key,
        state,
      );
    await expect(copyAs('other', 'in_progress')).rejects.toMatchObject(refused);
    await expect(sql(storage, 'UPDATE idempotency SET state = ?', 'pending')).rejects.toMatchObject(refused);
    await copyAs('other', 'in_flight');
    await sql(storage, "UPDATE idempotency SET state = ? WHERE key = 'other'", 'done');
    expect(await sql(storage, 'SELECT key, state FROM idempotency ORDER BY key')).toEqual([
      { key: 'k', state: 'done' },
      { key: 'other', state: 'done' },
    ]);
  });

  it.skipIf(skip).each(Object.entries(KEYED_ROWS))('refuses a row of %s without its key', async (table, insert) => {
    const storage = await open();
    await expect(sql(storage, insert, null)).rejects.toMatchObject({ code: NOT_NULL_VIOLATION[name] });
    await sql(storage, insert, 'kept');
    expect(await sql(storage, `SELECT count(*) AS n FROM ${table}`)).toEqual([{ n: 1 }]);
  });
});
