import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RateQuota } from '../../functions/config/rate-quota.ts';
import { MemoryLimiter, type QuotaLimiter } from '../../functions/limits/rate-limiter.ts';
import { RedisLimiter, RedisQuotaStore } from '../../functions/limits/redis-limiter.ts';
import type { SharedCounts } from '../../functions/limits/shared-counts.ts';
import { openPostgresStorage } from '../../functions/state/postgres/postgres-storage.ts';
import type { Storage } from '../../functions/state/storage.ts';
import { freshRedisUrl } from '../support/engines.ts';
import { freshDatabaseUrl, HAS_POSTGRES } from '../support/postgres.ts';
import { HAS_REDIS } from '../support/redis.ts';
import pg from 'pg';

/**
 * One contract for a quota, run against each place it is counted: in this process (MemoryLimiter),
 * in Redis (RedisLimiter) and in PostgreSQL (the storage's SharedCounts). Each test makes limiters
 * of its own, on keys of its own. Time moves on in memory by the limiter's own clock, and in Redis
 * and PostgreSQL by taking it off every window's end: no test waits in real time, so no window
 * can end between two decisions on a busy machine.
 */
interface LimiterEngine {
  name: string;
  skip: boolean;
  /** A new limiter of `quota`, with nothing counted yet. */
  make: (quota: RateQuota) => Promise<QuotaLimiter>;
  /** Lets `ms` pass, as the limiter sees time. */
  elapse: (ms: number) => Promise<void>;
  /** Throws unless every count so far was made where this engine keeps it (not a fallback). */
  checkCountedHere: () => void;
}

let now = 1_800_000_000_000;
const stores: RedisQuotaStore[] = [];
const storages: Storage[] = [];

/** The quota counts of a new instance on the file's PostgreSQL database, made (and migrated) on first use. */
let databaseUrl: Promise<string> | undefined;
async function postgresCounts(): Promise<SharedCounts> {
  const url = await (databaseUrl ??= freshDatabaseUrl());
  const storage = await openPostgresStorage(url, { idempotencyTtlMs: 60_000 });
  storages.push(storage);
  if (storage.quotaCounts === undefined) throw new Error('PostgreSQL storage counts no quotas');
  return storage.quotaCounts;
}

const LIMITER_ENGINES: LimiterEngine[] = [
  {
    name: 'memory',
    skip: false,
    make: async (quota) => new MemoryLimiter(quota, 1000, () => now),
    elapse: async (ms) => {
      now += ms;
    },
    checkCountedHere: () => undefined,
  },
  {
    name: 'Redis',
    skip: !HAS_REDIS,
    make: async (quota) => {
      const store = await RedisQuotaStore.open(await freshRedisUrl());
      stores.push(store);
      await store.firstConnection();
      return new RedisLimiter(quota, 'contract', store, () => new MemoryLimiter(quota, 1000));
    },
    // Each store has a Redis database of its own, holding only its windows (keys that expire):
    // each ends `ms` sooner, and one with no more than that left ends now, as if Redis had waited.
    elapse: async (ms) => {
      for (const { client } of stores)
        for (const key of await client.keys('*')) {
          const left = await client.pttl(key);
          await (left > ms ? client.pexpire(key, left - ms) : client.del(key));
        }
    },
    checkCountedHere: () => {
      for (const store of stores) if (!store.answering) throw new Error('Redis did not answer: a fallback counted');
    },
  },
  {
    name: 'PostgreSQL',
    skip: !HAS_POSTGRES,
    // A name of its own per limiter: another quota on the same table.
    make: async (quota) => (await postgresCounts()).limiter(`contract-${randomUUID()}`, quota),
    // The run's database holds only this file's windows: each ends `ms` sooner, as if PostgreSQL had waited.
    elapse: async (ms) => {
      const client = new pg.Client({ connectionString: await (databaseUrl ??= freshDatabaseUrl()) });
      await client.connect();
      try {
        await client.query('UPDATE quota_windows SET window_ends = window_ends - $1', [ms]);
      } finally {
        await client.end();
      }
    },
    // A count that PostgreSQL could not make throws (StorageUnavailable): there is no fallback.
    checkCountedHere: () => undefined,
  },
];

afterAll(async () => {
  for (const store of stores.splice(0)) store.close();
  await Promise.all(storages.splice(0).map((storage) => storage.close()));
});

describe.each(LIMITER_ENGINES)('a quota counted in $name', ({ skip, make, elapse, checkCountedHere }) => {
  afterEach(checkCountedHere);

  it.skipIf(skip)('allows the quota within a window, counting down what remains', async () => {
    const limiter = await make({ count: 3, seconds: 60 });
    expect(limiter.quota).toEqual({ count: 3, seconds: 60 });
    const decisions = [await limiter.consume('a'), await limiter.consume('a'), await limiter.consume('a')];
    expect(decisions).toEqual([2, 1, 0].map((remaining) => ({ allowed: true, limit: 3, remaining, resetSeconds: 60 })));
  });

  it.skipIf(skip)('refuses past the quota, counting nothing, until the window it names resets', async () => {
    const limiter = await make({ count: 2, seconds: 60 });
    await limiter.consume('a');
    await elapse(1000);
    await limiter.consume('a');
    const refused = await limiter.consume('a');
    expect(refused).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
    // The window started at the first count: it resets in less than a whole window, and not yet.
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.resetSeconds).toBeLessThanOrEqual(59);
    const peeked = await limiter.peek('a');
    expect(peeked).toMatchObject({ allowed: true, limit: 2, remaining: 0 });
    expect(peeked.resetSeconds).toBeLessThanOrEqual(refused.resetSeconds);
    // The refusal counted nothing: one unit given back is one more request allowed, and no more.
    await limiter.refund('a');
    expect(await limiter.consume('a')).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.consume('a')).allowed).toBe(false);
  });

  it.skipIf(skip)('counts several units at once, all or none', async () => {
    const limiter = await make({ count: 5, seconds: 60 });
    expect(await limiter.consume('a', 4)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await limiter.consume('a', 2)).toMatchObject({ allowed: false, remaining: 1 });
    expect(await limiter.consume('a', 1)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume('b', 6)).toMatchObject({ allowed: false, remaining: 5 });
    expect(await limiter.consume('b', 5)).toMatchObject({ allowed: true, remaining: 0 });
    await limiter.refund('b', 3);
    expect(await limiter.consume('b', 3)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it.skipIf(skip)('counts each key apart', async () => {
    const limiter = await make({ count: 1, seconds: 60 });
    expect((await limiter.consume('a')).allowed).toBe(true);
    expect((await limiter.consume('a')).allowed).toBe(false);
    expect(await limiter.peek('b')).toEqual({ allowed: true, limit: 1, remaining: 1, resetSeconds: 60 });
    expect((await limiter.consume('b')).allowed).toBe(true);
    // Another limiter (another quota) counts apart too.
    expect((await (await make({ count: 1, seconds: 60 })).consume('a')).allowed).toBe(true);
  });

  it.skipIf(skip)('counts concurrent requests exactly', async () => {
    const limiter = await make({ count: 10, seconds: 60 });
    const decisions = await Promise.all(Array.from({ length: 25 }, () => limiter.consume('a')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
    expect((await limiter.peek('a')).remaining).toBe(0);
  });

  it.skipIf(skip)('starts no window with a peek: the window starts with the first unit counted', async () => {
    const limiter = await make({ count: 2, seconds: 2 });
    expect(await limiter.peek('a')).toEqual({ allowed: true, limit: 2, remaining: 2, resetSeconds: 2 });
    expect(await limiter.consume('a', 0)).toEqual({ allowed: true, limit: 2, remaining: 2, resetSeconds: 2 });
    await elapse(1000);
    expect(await limiter.consume('a')).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 2 });
  });

  it.skipIf(skip)('gives back no more than was counted in the window', async () => {
    const limiter = await make({ count: 2, seconds: 60 });
    // Nothing counted yet: nothing to give back.
    await limiter.refund('a');
    // More given back than was counted: back to none counted, not below.
    await limiter.consume('b');
    await limiter.refund('b', 5);
    // Counted in a window that has ended: the refund is not carried into the next.
    await limiter.consume('c', 2);
    await elapse(60_000);
    await limiter.refund('c', 2);
    for (const key of ['a', 'b', 'c']) {
      const decisions = [await limiter.consume(key), await limiter.consume(key), await limiter.consume(key)];
      expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, false]);
    }
  });

  it.skipIf(skip)('starts a new window, with the whole quota, once the window has passed', async () => {
    const limiter = await make({ count: 2, seconds: 60 });
    await limiter.consume('a', 2);
    expect(await limiter.consume('a')).toMatchObject({ allowed: false, remaining: 0 });
    await elapse(60_000);
    expect(await limiter.peek('a')).toEqual({ allowed: true, limit: 2, remaining: 2, resetSeconds: 60 });
    expect(await limiter.consume('a')).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
    expect(await limiter.consume('a')).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.consume('a')).allowed).toBe(false);
  });
});

describe.skipIf(!HAS_POSTGRES)('a quota counted in PostgreSQL by several instances', () => {
  it('allows exactly the quota to concurrent counts from two instances on one key', async () => {
    const quota = { count: 7, seconds: 60 };
    const name = `instances-${randomUUID()}`;
    // Two storages, two pools: as two instances on one database.
    const [first, second] = await Promise.all([postgresCounts(), postgresCounts()]);
    const limiters = [first.limiter(name, quota), second.limiter(name, quota)];
    const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => limiters[i % 2]!.consume('a')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(7);
    expect(decisions.filter((decision) => !decision.allowed).map((decision) => decision.remaining)).toEqual(
      Array(33).fill(0),
    );
    expect(await limiters[0]!.peek('a')).toMatchObject({ remaining: 0 });
    // A unit given back on one instance is one more allowed on the other, and no more.
    await limiters[0]!.refund('a');
    expect(
      (await Promise.all([limiters[1]!.consume('a'), limiters[1]!.consume('a')])).map((d) => d.allowed).sort(),
    ).toEqual([false, true]);
  });

  it('forgets ended windows in the purge pass, and only those', async () => {
    const counts = await postgresCounts();
    const name = `purge-${randomUUID()}`;
    const short = counts.limiter(`${name}-short`, { count: 1, seconds: 1 });
    const long = counts.limiter(`${name}-long`, { count: 1, seconds: 600 });
    await Promise.all([short.consume('a'), long.consume('a')]);
    await new Promise((resolve) => setTimeout(resolve, 1020));
    expect(await counts.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await short.peek('a')).toMatchObject({ remaining: 1 });
    // The running window stayed: the quota is still used up.
    expect((await long.consume('a')).allowed).toBe(false);
  });
});
