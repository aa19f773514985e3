import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, Submission } from '../../functions/contact/message-store.ts';
import type { JobError, JobStore, RunShares } from '../../functions/jobs/job-store.ts';
import { SchemaTooNew } from '../../functions/state/schema-too-new.ts';
import type { KeyRef, RecordedAnswer } from '../../functions/contact/idempotency-store.ts';
import { MIGRATIONS } from '../../functions/state/postgres/migrations.ts';
import { openPostgresStorage, PostgresUnreachable } from '../../functions/state/postgres/postgres-storage.ts';
import { StorageUnavailable } from '../../functions/http/storage-unavailable.ts';
import type { Storage } from '../../functions/state/storage.ts';
import { HAS_POSTGRES, startPostgres, type ThrowawayPostgres } from '../support/postgres.ts';

/**
 * The PostgreSQL engine's stores against a real server, each instance of the service played by a
 * storage of its own (its own pool): what must hold across instances is checked under
 * concurrency, and an outage of the server is an outage the stores report and survive.
 */
describe.skipIf(!HAS_POSTGRES)('PostgreSQL stores', () => {
  let server: ThrowawayPostgres;
  const opened: Storage[] = [];
  const T = Date.now();
  const TTL = 60_000;
  const INTERRUPTED: JobError = { code: 'interrupted', message: 'The worker stopped.' };

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

  it('gives every instance the same secrets, made once, even when they start together', async () => {
    const url = await server.createDatabase();
    const storages = await Promise.all([open(url), open(url), open(url)]);
    const cursors = await Promise.all(storages.map((storage) => storage.secrets.loadOrCreate('cursor')));
    const tokens = await Promise.all(storages.map((storage) => storage.secrets.loadOrCreate('token')));
    expect(cursors[0]).toHaveLength(32);
    expect(cursors.map((secret) => secret.toString('hex'))).toEqual(Array(3).fill(cursors[0]?.toString('hex')));
    expect(tokens.map((secret) => secret.toString('hex'))).toEqual(Array(3).fill(tokens[0]?.toString('hex')));
    expect(tokens[0]?.equals(cursors[0] as Buffer)).toBe(false);
  });

  it('lets exactly one of 50 concurrent requests per key claim it, across two instances, and replays its answer', async () => {
    const [a, b] = await twoInstances();
    const keys = Array.from({ length: 20 }, (_, index) => ref(`race-${index}`));
    const claims = await Promise.all(
      keys.flatMap((key) =>
        Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? a : b).idempotency.claim(key, 30_000, T)),
      ),
    );
    const tokens = keys.map((_, index) => {
      const perKey = claims.slice(index * 50, index * 50 + 50);
      expect(perKey.filter((claim) => claim.kind === 'in_flight')).toHaveLength(49);
      const won = perKey.filter((claim) => claim.kind === 'claimed');
      expect(won).toHaveLength(1);
      return (won[0] as { token: string }).token;
    });

    const stored = await Promise.all(
      keys.map((key, index) =>
        (index % 2 === 0 ? b : a).messages.storeSubmission(submission(key, tokens[index] as string), T),
      ),
    );
    expect(stored.every((outcome) => outcome.stored)).toBe(true);
    expect(new Set(stored.map((outcome) => outcome.stored && outcome.id)).size).toBe(20);
    const later = await Promise.all(keys.map((key) => a.idempotency.claim(key, 30_000, T + 1)));
    expect(later).toEqual(keys.map((key) => ({ kind: 'recorded', answer: answer(key.key) })));
    // A second commit under the same claim is refused and shown the answer already recorded.
    const again = await b.messages.storeSubmission(submission(keys[0] as KeyRef, tokens[0] as string), T + 2);
    expect(again).toEqual({ stored: false, earlier: answer('race-0') });
    expect(await a.messages.list({ sandbox: false })).toHaveLength(20);
    // Once the answer expired, the key is free again; the purge drops expired answers.
    expect((await b.idempotency.claim(keys[1] as KeyRef, 30_000, T + TTL)).kind).toBe('claimed');
    expect(await a.idempotency.purge(T + TTL)).toBe(19);
  });

  it('frees a claim on release by its holder only, and after its lease, when the old holder can no longer commit', async () => {
    const [a, b] = await twoInstances();
    const key = ref('lease', true);
    const first = await a.idempotency.claim(key, 1000, T);
    if (first.kind !== 'claimed') throw new Error('expected a claim');
    await b.idempotency.release(key, 'someone-else');
    expect(await b.idempotency.claim(key, 1000, T + 1)).toEqual({ kind: 'in_flight' });
    await b.idempotency.release(key, first.token);
    const second = await b.idempotency.claim(key, 1000, T + 2);
    if (second.kind !== 'claimed') throw new Error('expected the released key to be claimable');

    expect(await a.idempotency.claim(key, 1000, T + 1001)).toEqual({ kind: 'in_flight' });
    const third = await a.idempotency.claim(key, 1000, T + 1002);
    if (third.kind !== 'claimed') throw new Error('expected the lapsed claim to be claimable');
    expect(await b.messages.storeSubmission(submission(key, second.token), T + 1003)).toEqual({ stored: false });
    const stored = await a.messages.storeSubmission(submission(key, third.token, []), T + 1004);
    expect(stored.stored).toBe(true);
    expect(await b.messages.storeSubmission(submission(key, second.token), T + 1005)).toEqual({
      stored: false,
      earlier: answer('lease'),
    });
    const [message] = await b.messages.list({ sandbox: true });
    expect(message).toMatchObject({ sandbox: true, createdAt: T + 1004, deliveries: {} });
  });

  it('hands each due message to one claimer at a time, across two instances', async () => {
    const [a, b] = await twoInstances();
    for (let index = 0; index < 60; index++) {
      const key = ref(`due-${index}`);
      const claim = await a.idempotency.claim(key, 30_000, T);
      if (claim.kind !== 'claimed') throw new Error('expected a claim');
      await a.messages.storeSubmission(submission(key, claim.token), T + index);
    }
    expect(await b.messages.nextDeliveryAt('webhook')).toBe(T);
    const rounds = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        (index % 2 === 0 ? a : b).messages.claimDue('webhook', T + 100, 7, 60_000),
      ),
    );
    const ids = rounds.flat().map((due) => due.message.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    for (const round of rounds)
      expect(round.map((d) => d.message.id)).toEqual([...round.map((d) => d.message.id)].sort((x, y) => x - y));
    expect(await a.messages.claimDue('webhook', T + 60_099, 100, 60_000)).toEqual([]);

    const [first, second] = (await b.messages.claimDue('webhook', T + 60_100, 2, 60_000)).map((due) => due.message.id);
    await a.messages.recordDelivery(first as number, 'webhook');
    await a.messages.recordFailure(second as number, 'webhook', 'x'.repeat(600), null);
    const listed = await b.messages.list({ sandbox: false, unreadOnly: true, limit: 100 });
    expect(listed.find((m) => m.id === first)?.deliveries.webhook).toMatchObject({ state: 'delivered', attempts: 1 });
    const failed = listed.find((m) => m.id === second)?.deliveries.webhook;
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, nextAt: null });
    expect(failed?.lastError).toHaveLength(500);

    expect(await a.messages.markRead([first as number, second as number, 999_999], T)).toBe(2);
    expect(await b.messages.markRead([first as number], T)).toBe(0);
    expect(await b.messages.list({ sandbox: false, unreadOnly: true })).toHaveLength(58);
    expect((await b.messages.list({ sandbox: false, limit: 3 })).map((m) => m.createdAt)).toEqual([
      T + 59,
      T + 58,
      T + 57,
    ]);
    expect(await a.messages.purgeSandbox(T + 1000)).toBe(0);
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

  it('runs each of 200 jobs once from two instances, within the concurrency and each client’s share', async () => {
    const [a, b] = await twoInstances();
    const shares = { queuePerClient: 1000, queueLimit: 1000 };
    for (let index = 0; index < 200; index++) {
      const owner = `client-${index % 8}`;
      const job = { id: `job-${index}`, task: 'echo', input: { index }, owner, sandbox: index % 3 === 0 };
      expect(await (index % 2 === 0 ? a : b).jobs.enqueue(job, shares, T + index, T + 3_600_000)).toEqual({
        queued: true,
      });
    }
    const run: RunShares = { concurrency: 4, runningPerClient: 1 };
    const started = new Map<string, number>();
    const running = new Map<string, number>();
    let total = 0;
    let most = 0;
    const worker = async (store: JobStore, name: string) => {
      for (;;) {
        const job = await store.claimNext(name, run, 60_000, T + 10_000);
        if (job === undefined) {
          if (started.size === 200) return;
          await new Promise((resolve) => setTimeout(resolve, 2));
          continue;
        }
        started.set(job.id, (started.get(job.id) ?? 0) + 1);
        total += 1;
        running.set(job.owner, (running.get(job.owner) ?? 0) + 1);
        most = Math.max(most, total);
        expect(running.get(job.owner)).toBe(1);
        expect(job.attempt).toBe(1);
        // Counted down before the finish commits, so these counts never exceed what the database counts.
        total -= 1;
        running.set(job.owner, (running.get(job.owner) ?? 1) - 1);
        expect(await store.finish(job.id, name, { result: { echoed: job.input } }, 1000, T + 10_001)).toBe(true);
      }
    };
    await Promise.all(
      Array.from({ length: 8 }, (_, index) => worker(index % 2 === 0 ? a.jobs : b.jobs, `worker-${index}`)),
    );
    expect(started.size).toBe(200);
    expect([...started.values()].every((times) => times === 1)).toBe(true);
    expect(most).toBeLessThanOrEqual(run.concurrency);
    const views = await a.jobs.findMany(
      Array.from({ length: 200 }, (_, index) => `job-${index}`),
      false,
      T + 20_000,
    );
    expect(views.size).toBe(133);
    expect(views.get('job-1')).toMatchObject({ status: 'succeeded', progress: 1, result: { echoed: { index: 1 } } });
  });

  it('never lets more jobs run than the concurrency, nor a client more than its share, under concurrent claims', async () => {
    const [a, b] = await twoInstances();
    const shares = { queuePerClient: 100, queueLimit: 100 };
    for (let index = 0; index < 40; index++) {
      const job = { id: `job-${index}`, task: 'echo', input: {}, owner: `client-${index % 5}`, sandbox: false };
      await a.jobs.enqueue(job, shares, T + index, T + 3_600_000);
    }
    const claims = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        (index % 2 === 0 ? a : b).jobs.claimNext(`w${index}`, { concurrency: 4, runningPerClient: 1 }, 60_000, T + 100),
      ),
    );
    const claimed = claims.filter((job) => job !== undefined);
    expect(claimed).toHaveLength(4);
    expect(new Set(claimed.map((job) => job.owner)).size).toBe(4);
    // Oldest first: the first four jobs belong to four different clients.
    expect(claimed.map((job) => job.id).sort()).toEqual(['job-0', 'job-1', 'job-2', 'job-3']);
  });

  it('fences a worker that lost its lease, and fails a job after its last attempt', async () => {
    const [a, b] = await twoInstances();
    const shares = { queuePerClient: 10, queueLimit: 10 };
    const run = { concurrency: 4, runningPerClient: 4 };
    await a.jobs.enqueue(
      { id: 'job-lease', task: 'echo', input: {}, owner: 'c', sandbox: false },
      shares,
      T,
      T + 3_600_000,
    );
    expect(await a.jobs.claimNext('a', run, 1000, T)).toMatchObject({ id: 'job-lease', attempt: 1 });
    expect(await a.jobs.renewLease('job-lease', 'a', 1000, T + 900)).toBe(true);
    expect(await b.jobs.reapExpired(2, INTERRUPTED, T + 1900)).toBe(0);
    expect(await b.jobs.reapExpired(2, INTERRUPTED, T + 1901)).toBe(1);
    expect(await b.jobs.claimNext('b', run, 1000, T + 2000)).toMatchObject({ id: 'job-lease', attempt: 2 });

    expect(await a.jobs.renewLease('job-lease', 'a', 1000, T + 2001)).toBe(false);
    await a.jobs.setProgress('job-lease', 'a', 0.9, T + 2002);
    expect(await a.jobs.finish('job-lease', 'a', { result: { late: true } }, 10, T + 2003)).toBe(false);
    await b.jobs.setProgress('job-lease', 'b', 0.5, T + 2004);
    expect(await a.jobs.find('job-lease', false, T + 2005)).toMatchObject({
      status: 'running',
      progress: 0.5,
      result: null,
    });
    expect(await a.jobs.find('job-lease', true, T + 2005)).toBeUndefined();

    expect(await a.jobs.reapExpired(2, INTERRUPTED, T + 3001)).toBe(1);
    expect(await b.jobs.finish('job-lease', 'b', { result: {} }, 10, T + 3002)).toBe(false);
    expect(await b.jobs.find('job-lease', false, T + 3003)).toMatchObject({ status: 'failed', error: INTERRUPTED });
    expect(await a.jobs.recoverAtStart(INTERRUPTED, T + 3004)).toBe(0);
  });

  it('keeps the queue shares under concurrent enqueues from two instances', async () => {
    const [a, b] = await twoInstances();
    const shares = { queuePerClient: 5, queueLimit: 12 };
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        (index % 2 === 0 ? a : b).jobs.enqueue(
          { id: `job-${index}`, task: 'echo', input: {}, owner: `client-${index % 3}`, sandbox: false },
          shares,
          T,
          T + 3_600_000,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.queued)).toHaveLength(12);
    for (const outcome of outcomes) {
      if (outcome.queued) continue;
      expect(outcome.waiting).toBe(outcome.full === 'client' ? 5 : 12);
    }
    const queuedPerClient = [0, 1, 2].map(
      (client) => outcomes.filter((outcome, index) => outcome.queued && index % 3 === client).length,
    );
    expect(Math.max(...queuedPerClient)).toBeLessThanOrEqual(5);
    // Sandbox jobs wait in a queue of their own.
    const sandbox = await a.jobs.enqueue(
      { id: 'job-s', task: 'echo', input: {}, owner: 'other', sandbox: true },
      shares,
      T,
      T + 1,
    );
    expect(sandbox).toEqual({ queued: true });
  });

  it('keeps each client’s newest finished jobs and purges expired ones', async () => {
    const [a] = await twoInstances();
    const shares = { queuePerClient: 10, queueLimit: 10 };
    const run = { concurrency: 1, runningPerClient: 1 };
    for (let index = 0; index < 3; index++) {
      await a.jobs.enqueue(
        { id: `job-${index}`, task: 'echo', input: {}, owner: 'c', sandbox: false },
        shares,
        T,
        T + 10_000,
      );
      const job = await a.jobs.claimNext('w', run, 1000, T + index);
      expect(await a.jobs.finish(job?.id as string, 'w', { error: INTERRUPTED }, 2, T + index)).toBe(true);
    }
    const views = await a.jobs.findMany(['job-0', 'job-1', 'job-2'], false, T + 10);
    expect([...views.keys()].sort()).toEqual(['job-1', 'job-2']);
    expect(await a.jobs.purge(1, T + 10)).toBe(1);
    expect(await a.jobs.purge(1, T + 10_000)).toBe(1);
  });

  it('stores API keys by hash and purges the expired ones', async () => {
    const [a, b] = await twoInstances();
    await a.keys.insert({ keyId: 'k1', hash: 'h1', label: 'ci', sandbox: true, createdAt: T, expiresAt: T + 10 });
    await a.keys.insert({ keyId: 'k2', hash: 'h2', label: null, sandbox: true, createdAt: T, expiresAt: T + 20 });
    expect(await b.keys.findByHash('h1')).toEqual({ keyId: 'k1', label: 'ci', createdAt: T, expiresAt: T + 10 });
    expect(await b.keys.findById('k2')).toEqual({ keyId: 'k2', label: null, createdAt: T, expiresAt: T + 20 });
    expect(await b.keys.findById('k3')).toBeUndefined();
    expect(await b.keys.purgeExpired(T + 10)).toBe(1);
    expect(await a.keys.findByHash('h1')).toBeUndefined();
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
