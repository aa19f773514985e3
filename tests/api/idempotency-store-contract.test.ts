import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Channel, Submission } from '../../functions/contact/message-store.ts';
import type { KeyRef, RecordedAnswer } from '../../functions/contact/idempotency-store.ts';
import type { Storage } from '../../functions/state/storage.ts';
import { closeOpened, CONTRACT_TTL_MS, STORE_ENGINES } from '../support/store-engines.ts';

/**
 * One contract for Idempotency-Key claims and the message they record, run against each engine:
 * one claimer per key, the recorded answer replayed, a claim that lapses or is released, and a
 * holder that lost its claim unable to commit. Each test opens a storage of its own.
 */
const T = 1_800_000_000_000;

const answer = (text: string): RecordedAnswer => ({ fingerprint: `fp-${text}`, status: 201, body: `{"m":"${text}"}` });
const ref = (key: string, sandbox = false): KeyRef => ({ scope: 'contact:192.0.2.1', sandbox, key });
const submission = (key: KeyRef, token: string, channels: readonly Channel[] = ['webhook']): Submission => ({
  ref: key,
  token,
  message: { sandbox: key.sandbox, name: 'Ada', email: 'ada@example.com', message: `About ${key.key}` },
  channels,
  answer: answer(key.key),
});

afterAll(closeOpened);

/**
 * Runs SQL straight against a storage's database, beside the storage's own connections: its
 * location is the database file, or a URL that has no password to leave out in these tests.
 */
async function onDatabase(storage: Storage, sql: string): Promise<Record<string, unknown>[]> {
  if (storage.engine === 'sqlite') {
    const db = new Database(storage.location);
    try {
      if (/^\s*SELECT/i.test(sql)) return db.prepare(sql).all() as Record<string, unknown>[];
      db.exec(sql);
      return [];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: storage.location });
  await client.connect();
  try {
    const results = await client.query(sql);
    return Array.isArray(results) ? [] : (results.rows as Record<string, unknown>[]);
  } finally {
    await client.end();
  }
}

/** Makes every insert into and update of `table` fail until the returned function is called. */
async function failWritesTo(storage: Storage, table: string): Promise<() => Promise<unknown>> {
  if (storage.engine === 'sqlite') {
    await onDatabase(
      storage,
      ['INSERT', 'UPDATE']
        .map(
          (event) =>
            `CREATE TRIGGER fail_${event} BEFORE ${event} ON ${table} BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`,
        )
        .join('\n'),
    );
    return () => onDatabase(storage, 'DROP TRIGGER fail_INSERT; DROP TRIGGER fail_UPDATE;');
  }
  await onDatabase(
    storage,
    `CREATE FUNCTION fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
     CREATE TRIGGER fail BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION fail();`,
  );
  return () => onDatabase(storage, `DROP TRIGGER fail ON ${table}; DROP FUNCTION fail();`);
}

describe.each(STORE_ENGINES)(
  'Idempotency-Key claims and their messages on $name',
  ({ skip, claimsLapse, open, instances }) => {
    async function claimed(storage: Storage, key: KeyRef, leaseMs: number, now: number): Promise<string> {
      const claim = await storage.idempotency.claim(key, leaseMs, now);
      if (claim.kind !== 'claimed') throw new Error(`expected a claim of ${key.key}, got ${claim.kind}`);
      return claim.token;
    }

    it.skipIf(skip)(
      'gives a key to one claimer, records its answer once, and replays it until it expires',
      async () => {
        const storage = await open();
        const key = ref('once');
        const token = await claimed(storage, key, 30_000, T);
        expect(await storage.idempotency.claim(key, 30_000, T + 1)).toEqual({ kind: 'in_flight' });
        const stored = await storage.messages.storeSubmission(submission(key, token), T + 2);
        expect(stored.stored).toBe(true);
        expect(await storage.idempotency.claim(key, 30_000, T + 3)).toEqual({
          kind: 'recorded',
          answer: answer('once'),
        });
        // A second commit under the same claim is refused and shown the answer already recorded.
        expect(await storage.messages.storeSubmission(submission(key, token), T + 4)).toEqual({
          stored: false,
          earlier: answer('once'),
        });
        expect(await storage.messages.list({ sandbox: false })).toHaveLength(1);
        // The same key in another scope or mode is another key.
        expect((await storage.idempotency.claim({ ...key, scope: 'contact:192.0.2.2' }, 30_000, T + 5)).kind).toBe(
          'claimed',
        );
        expect((await storage.idempotency.claim(ref('once', true), 30_000, T + 6)).kind).toBe('claimed');
        // Once the answer expired, the key is free again, and the purge drops the expired answer.
        expect((await storage.idempotency.claim(key, 30_000, T + 2 + CONTRACT_TTL_MS)).kind).toBe('claimed');
        expect(await storage.idempotency.purge(T + 2 + CONTRACT_TTL_MS)).toBeGreaterThanOrEqual(1);
      },
    );

    it.skipIf(skip)('frees a claim on release by its holder only, on any instance', async () => {
      const [a, b] = (await instances(2)) as [Storage, Storage];
      const key = ref('release', true);
      const first = await claimed(a, key, 1000, T);
      await b.idempotency.release(key, 'someone-else');
      expect(await b.idempotency.claim(key, 1000, T + 1)).toEqual({ kind: 'in_flight' });
      await b.idempotency.release(key, first);
      const second = await claimed(b, key, 1000, T + 2);
      // The released holder can no longer commit; the new one can.
      expect(await a.messages.storeSubmission(submission(key, first), T + 3)).toEqual({ stored: false });
      expect((await b.messages.storeSubmission(submission(key, second, []), T + 4)).stored).toBe(true);
      const [message] = await a.messages.list({ sandbox: true });
      expect(message).toMatchObject({ sandbox: true, createdAt: T + 4, deliveries: {} });
    });

    it.skipIf(skip || !claimsLapse)(
      'frees a claim after its lease, when the old holder can no longer commit on any instance',
      async () => {
        const [a, b] = (await instances(2)) as [Storage, Storage];
        const key = ref('lease');
        const first = await claimed(a, key, 1000, T);
        expect(await b.idempotency.claim(key, 1000, T + 999)).toEqual({ kind: 'in_flight' });
        const second = await claimed(b, key, 1000, T + 1000);
        expect(await a.messages.storeSubmission(submission(key, first), T + 1001)).toEqual({ stored: false });
        expect((await b.messages.storeSubmission(submission(key, second), T + 1002)).stored).toBe(true);
        expect(await a.messages.storeSubmission(submission(key, first), T + 1003)).toEqual({
          stored: false,
          earlier: answer('lease'),
        });
      },
    );

    it.skipIf(skip)(
      'lets exactly one of 50 concurrent requests per key claim it, across instances, and replays its answer',
      async () => {
        const [a, b] = (await instances(2)) as [Storage, Storage];
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
        // Once the answers expired, a key is free again, and the purge drops the expired answers: all
        // 20 on SQLite, whose claims are not rows; 19 on PostgreSQL, where the new claim took one's row.
        expect((await b.idempotency.claim(keys[1] as KeyRef, 30_000, T + CONTRACT_TTL_MS)).kind).toBe('claimed');
        expect(await a.idempotency.purge(T + CONTRACT_TTL_MS)).toBe(claimsLapse ? 19 : 20);
        expect((await a.idempotency.claim(keys[2] as KeyRef, 30_000, T + CONTRACT_TTL_MS)).kind).toBe('claimed');
      },
    );

    // The parts of storing a submission, whichever order an engine writes them in: the recorded
    // answer, the message and its outbox.
    for (const table of ['idempotency', 'messages', 'deliveries']) {
      it.skipIf(skip)(`stores no part of a submission when writing to ${table} fails`, async () => {
        const storage = await open();
        const key = ref(`fails-at-${table}`);
        const token = await claimed(storage, key, 30_000, T);
        const restore = await failWritesTo(storage, table);
        await expect(
          storage.messages.storeSubmission(submission(key, token, ['webhook', 'email']), T + 1),
        ).rejects.toThrow(/injected failure/);
        await restore();
        expect(await storage.messages.list({ sandbox: false })).toEqual([]);
        expect(await onDatabase(storage, 'SELECT * FROM deliveries')).toEqual([]);
        expect(await onDatabase(storage, "SELECT * FROM idempotency WHERE state = 'done'")).toEqual([]);
        // Given back, as the contact service gives back the claim of a request that failed, the key has
        // no answer: its retry is stored, once, with its outbox, and then replayed.
        await storage.idempotency.release(key, token);
        const retry = await claimed(storage, key, 30_000, T + 2);
        expect(
          (await storage.messages.storeSubmission(submission(key, retry, ['webhook', 'email']), T + 3)).stored,
        ).toBe(true);
        const [message, ...others] = await storage.messages.list({ sandbox: false });
        expect(others).toEqual([]);
        expect(Object.keys(message!.deliveries).sort()).toEqual(['email', 'webhook']);
        expect(await storage.idempotency.claim(key, 30_000, T + 4)).toEqual({
          kind: 'recorded',
          answer: answer(key.key),
        });
      });
    }
  },
);
