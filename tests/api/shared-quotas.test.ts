import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApi, type InProcessApi } from '../support/api.ts';
import { VALID } from '../support/contact.ts';
import { freshDataDir } from '../support/server.ts';
import { HAS_REDIS, startRedis, type ThrowawayRedis } from '../support/redis.ts';

/**
 * Two instances of the API counting their quotas in one real Redis (REDIS_URL): every quota is
 * counted once for the whole service, exactly under concurrency, and an outage of Redis leaves
 * every request served, each instance counting on its own until Redis returns.
 */
describe.skipIf(!HAS_REDIS)('quotas shared through Redis', () => {
  let redis: ThrowawayRedis;
  let a: InProcessApi;
  let b: InProcessApi;
  const ENV = {
    READ_RATE_LIMIT: '20/60',
    CONTACT_RATE_LIMIT: '3/600',
    KEYS_RATE_LIMIT: '2/3600',
    TEST_KEY_READ_RATE_LIMIT: '6/60',
  };

  beforeAll(async () => {
    redis = await startRedis();
    // One data directory, so a test key made on one instance is valid on the other as well.
    const dataDir = freshDataDir();
    a = await startApi({ ...ENV, REDIS_URL: redis.url }, dataDir);
    b = await startApi({ ...ENV, REDIS_URL: redis.url }, dataDir);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  /** `count` requests from one client, spread over both instances, all at once. */
  function spread(count: number, send: (instance: InProcessApi, index: number) => Promise<number>): Promise<number[]> {
    return Promise.all(Array.from({ length: count }, (_, i) => send(i % 2 === 0 ? a : b, i)));
  }
  const tally = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

  it('counts reads once for the whole service: 20 of 26 concurrent reads over two instances', async () => {
    const statuses = await spread(
      26,
      async (api) => (await api.request({ path: '/api/v1/projects?limit=1', remoteAddress: '192.0.2.10' })).status,
    );
    expect(tally(statuses)).toEqual({ 200: 20, 429: 6 });
    const next = await b.request({ path: '/api/v1/projects?limit=1', remoteAddress: '192.0.2.10' });
    expect([next.status, next.headers['ratelimit-remaining']]).toEqual([429, '0']);
  });

  it('accepts exactly the message quota from concurrent contact posts over two instances', async () => {
    const statuses = await spread(10, async (api, i) => {
      const answer = await api.request({
        method: 'POST',
        path: '/api/v1/contact',
        remoteAddress: '192.0.2.11',
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ ...VALID, message: `Shared quota message ${i}` }),
      });
      return answer.status;
    });
    expect(tally(statuses)).toEqual({ 200: 3, 429: 7 });
  });

  it('counts key creation and the test tier across instances', async () => {
    const create = (api: InProcessApi) =>
      api.request({
        method: 'POST',
        path: '/api/v1/keys',
        remoteAddress: '192.0.2.12',
        headers: { 'content-type': 'application/json' },
      });
    const made = await create(a);
    expect((await create(b)).status).toBe(201);
    expect((await create(a)).status).toBe(429);
    const { key } = JSON.parse(made.body.toString()) as { key: string };
    const statuses = await spread(
      8,
      async (api) => (await api.request({ path: '/api/v1/sandbox/ping', headers: { 'x-api-key': key } })).status,
    );
    expect(tally(statuses)).toEqual({ 200: 6, 429: 2 });
  });

  it('serves every request while Redis is down, each instance counting alone, and shares again when it returns', async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      await redis.stop();
      const ping = (api: InProcessApi, ip: string) =>
        api.request({ path: '/api/v1/sandbox/ping', remoteAddress: ip }).then((answer) => answer.status);
      // Each instance now counts its own 20: 40 reads from one client are served, the 41st on A is not.
      const down = await spread(40, (api) => ping(api, '192.0.2.13'));
      expect(tally(down)).toEqual({ 200: 40 });
      expect(await ping(a, '192.0.2.13')).toBe(429);
      // Logged once per instance (both live in this process), not once per request.
      expect(written.filter((line) => line.includes('Redis unreachable'))).toHaveLength(2);

      await redis.start();
      for (let waited = 0; written.filter((line) => line.includes('Redis is back')).length < 2; waited += 100) {
        if (waited > 30_000) throw new Error('the instances never saw Redis return');
        // A request makes the client notice sooner; it is served either way.
        expect(await ping(b, '192.0.2.14')).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      spy.mockRestore();
    }
    // Shared again: a fresh client gets 20 over both instances, not 20 on each.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const statuses = await spread(
      24,
      async (api) => (await api.request({ path: '/api/health', remoteAddress: '192.0.2.15' })).status,
    );
    expect(tally(statuses)).toEqual({ 200: 20, 429: 4 });
  });
  it('answers every charged request while Redis holds the connection but never replies (SIGSTOP), says so once, and shares again after SIGCONT', async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const said = (text: string) => written.filter((line) => line.includes(text)).length;
    // Only a hang-catcher: a request held by the stalled Redis fails the test instead of hanging it.
    const guarded = <T>(work: Promise<T>) =>
      Promise.race([
        work,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('a request waited for the stalled Redis')), 30_000).unref(),
        ),
      ]);
    try {
      redis.pause();
      try {
        const answers = await guarded(
          spread(12, (api) =>
            api
              .request({ path: '/api/v1/sandbox/ping', remoteAddress: '192.0.2.16' })
              .then((answer) => answer.status * 1000 + Number(answer.headers['ratelimit-remaining'] !== undefined)),
          ),
        );
        // Each answered 200 with its quota headers, counted by its instance.
        expect(tally(answers)).toEqual({ 200001: 12 });
        const more = await guarded(a.request({ path: '/api/v1/sandbox/ping', remoteAddress: '192.0.2.16' }));
        expect([more.status, more.headers['ratelimit-limit']]).toEqual([200, '20']);
        // Once per instance (both live in this process), not once per request.
        expect(said('Redis unreachable')).toBe(2);
      } finally {
        redis.resume();
      }
      for (let waited = 0; said('Redis is back') < 2; waited += 100) {
        if (waited > 30_000) throw new Error('the instances never saw Redis answer again');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect([said('Redis unreachable'), said('Redis is back')]).toEqual([2, 2]);
    } finally {
      spy.mockRestore();
    }
    // Shared again: a fresh client gets 20 over both instances, not 20 on each.
    const statuses = await spread(
      24,
      async (api) => (await api.request({ path: '/api/health', remoteAddress: '192.0.2.17' })).status,
    );
    expect(tally(statuses)).toEqual({ 200: 20, 429: 4 });
  });
});
