import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, Submission } from '../../functions/contact/message-store.ts';
import { SchemaTooNew } from '../../functions/state/schema-too-new.ts';
import type { KeyRef, RecordedAnswer } from '../../functions/contact/idempotency-store.ts';
import { MIGRATIONS } from '../../functions/state/postgres/migrations.ts';
import { openPostgresStorage, PostgresUnreachable } from '../../functions/state/postgres/postgres-storage.ts';
import { StorageUnavailable } from '../../functions/http/storage-unavailable.ts';
import type { Storage } from '../../functions/state/storage.ts';
import { HAS_POSTGRES, startPostgres, type ThrowawayPostgres } from '../support/postgres.ts';

/**
 * What only the PostgreSQL engine has, against a real server of its own: migrations raced by
 * instances starting together, a query plan that must not change what a claim takes, and an
 * outage the stores report and survive. What every engine promises, across instances and under
 * concurrency, is in the store contracts (tests/api/*-store-contract.test.ts).
 */
describe.skipIf(!HAS_POSTGRES)('PostgreSQL stores', () => {
  let server: ThrowawayPostgres;
  const opened: Storage[] = [];
  const T = Date.now();
  const TTL = 60_000;

  beforeAll(async () => {
    server = await startPostgres();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((storage) => storage.close()));
  });
  afterAll(async () => {
    await server?.destroy();
  });

  async function open(url: string): Promise<Storage> {
    const storage = await openPostgresStorage(url, { idempotencyTtlMs: TTL });
    opened.push(storage);
    return storage;
  }

  /** Two instances sharing one new database. */
  async function twoInstances(): Promise<[Storage, Storage]> {
    const url = await server.createDatabase();
    return [await open(url), await open(url)];
  }

  async function sql<Row extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<Row>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  const answer = (text: string): RecordedAnswer => ({
    fingerprint: `fp-${text}`,
    status: 201,
    body: `{"m":"${text}"}`,
  });
  const submission = (ref: KeyRef, token: string, channels: readonly Channel[] = ['webhook']): Submission => ({
    ref,
    token,
    message: { sandbox: ref.sandbox, name: 'Ada', email: 'ada@example.com', message: `About ${ref.key}` },
    channels,
    answer: answer(ref.key),
  });
  const ref = (key: string, sandbox = false): KeyRef => ({ scope: 'contact:192.0.2.1', sandbox, key });

  it('applies each migration once when three instances start together, and refuses a newer schema', async () => {
    const url = await server.createDatabase();
    // The server trusts every local connection, so a password in the URL is accepted and ignored.
    const withPassword = url.replace('postgres@', 'postgres:hunter2@');
    const storages = await Promise.all([open(url), open(withPassword), open(url)]);
    expect(storages.map((storage) => [storage.engine, storage.readOnly])).toEqual(Array(3).fill(['postgresql', false]));
    expect(storages[1]?.location).toBe(url);
    const versions = await sql<{ version: number }>(url, 'SELECT version FROM schema_migrations ORDER BY version');
    expect(versions.map((row) => row.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));

    await sql(url, 'INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 0)', [MIGRATIONS.length + 1]);
    await expect(openPostgresStorage(url, { idempotencyTtlMs: TTL })).rejects.toBeInstanceOf(SchemaTooNew);
  });

  it('claims at most the limit of due deliveries, the oldest first, and leaves the others due', async () => {
    const url = await server.createDatabase();
    const storage = await open(url);
    for (let index = 0; index < 3; index++) {
      const key = ref(`limit-${index}`);
      const claim = await storage.idempotency.claim(key, 30_000, T);
      if (claim.kind !== 'claimed') throw new Error('expected a claim');
      await storage.messages.storeSubmission(submission(key, claim.token), T + index);
    }
    // The planner's view of an outbox restored from a dump (its size known, its columns never
    // analysed): few rows per channel, so a nested loop that runs the due-deliveries subquery again
    // for each row, with nothing to keep its first answer. A claim that counts on the planner to
    // apply its limit once claims every due delivery under that plan.
    await sql(url, 'VACUUM deliveries');
    const ids = (await storage.messages.list({ sandbox: false })).map((message) => message.id).sort((x, y) => x - y);
    const claimed = await storage.messages.claimDue('webhook', T + 100, 1, 60_000);
    expect(claimed.map((due) => due.message.id)).toEqual([ids[0]]);
    const due = await sql<{ next_at: string }>(url, 'SELECT next_at FROM deliveries ORDER BY message_id');
    expect(due.map((row) => Number(row.next_at))).toEqual([T + 100 + 60_000, T + 1, T + 2]);
    expect(await storage.messages.nextDeliveryAt('webhook')).toBe(T + 1);
    const next = await storage.messages.claimDue('webhook', T + 100, 1, 60_000);
    expect(next.map((d) => d.message.id)).toEqual([ids[1]]);
  });

  it('reports an outage as StorageUnavailable, and serves again once the server is back, without reopening', async () => {
    const [a] = await twoInstances();
    await a.ping();
    await server.stop();
    try {
      await expect(a.ping()).rejects.toBeInstanceOf(StorageUnavailable);
      await expect(a.idempotency.claim(ref('outage'), 1000, T)).rejects.toBeInstanceOf(StorageUnavailable);
      await expect(a.jobs.claimNext('w', { concurrency: 1, runningPerClient: 1 }, 1000, T)).rejects.toBeInstanceOf(
        StorageUnavailable,
      );
      await expect(openPostgresStorage(server.url, { idempotencyTtlMs: TTL })).rejects.toBeInstanceOf(
        PostgresUnreachable,
      );
    } finally {
      await server.start();
    }
    await a.ping();
    expect((await a.idempotency.claim(ref('outage'), 1000, T)).kind).toBe('claimed');
  });
});
