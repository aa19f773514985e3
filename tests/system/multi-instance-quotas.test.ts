import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContact, VALID } from '../support/contact.ts';
import { startInstance, tally, type SharedServers } from '../support/instances.ts';
import { freshDatabaseUrl, HAS_POSTGRES } from '../support/postgres.ts';
import { queryState } from '../support/raw-state.ts';
import { HAS_REDIS, startRedis, type ThrowawayRedis } from '../support/redis.ts';
import type { RunningServer } from '../support/server.ts';
import { waitFor } from '../support/webhook.ts';

/**
 * Two production servers on one PostgreSQL count a contact quota of 5 as one service: with no
 * Redis at all, in PostgreSQL; with a Redis of this file's own that dies under them, in Redis
 * and then in PostgreSQL, never in each instance's memory (where two instances would allow 10).
 */
describe.skipIf(!HAS_POSTGRES || !HAS_REDIS)('contact quotas across instances, with no Redis or a dead one', () => {
  let redis: ThrowawayRedis;
  const started: RunningServer[] = [];

  /** A contact quota of 5 per 10 minutes; reads out of the way. Every post comes from 127.0.0.1. */
  const ENV = { CONTACT_RATE_LIMIT: '5/600', READ_RATE_LIMIT: '100000/60' };

  async function pair(shared: SharedServers): Promise<[RunningServer, RunningServer]> {
    const instances = await Promise.all([startInstance(shared, ENV), startInstance(shared, ENV)]);
    started.push(...instances);
    return instances;
  }

  /** `count` contact posts at once, alternating between the instances; their statuses. */
  async function posts(instances: readonly RunningServer[], count: number): Promise<number[]> {
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        postContact(instances[i % instances.length]!.baseUrl, { ...VALID, message: `Quota ${randomUUID()}` }),
      ),
    );
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.body.code).toBe('rate_limited');
      expect(refused.headers.get('ratelimit-limit')).toBe('5');
    }
    return answers.map((answer) => answer.status);
  }

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(started.map((instance) => instance.stop('SIGKILL')));
    await redis?.stop();
  });

  it('counts the contact quota in PostgreSQL without REDIS_URL: 5 of 12 posts over two instances', async () => {
    const [a, b] = await pair({ DATABASE_URL: await freshDatabaseUrl(), REDIS_URL: '' });
    for (const instance of [a, b]) {
      const listening = instance.logLines.find((line) => line.message === 'listening');
      expect(listening?.quotas).toBe('reads this instance only; contact, keys and form tokens shared (PostgreSQL)');
    }
    expect(tally(await posts([a, b], 12))).toEqual({ 200: 5, 429: 7 });
    const windows = await queryState(a.dataDir, "SELECT key, used FROM quota_windows WHERE key LIKE '%:contact:%'");
    expect(windows).toEqual([{ key: 'quota:anonymous:contact:127.0.0.1', used: 5 }]);
  });

  it('goes on counting in PostgreSQL, exactly, when Redis dies under two instances', async () => {
    const [a, b] = await pair({ DATABASE_URL: await freshDatabaseUrl(), REDIS_URL: redis.url });
    for (const instance of [a, b]) {
      const listening = instance.logLines.find((line) => line.message === 'listening');
      expect(listening?.quotas).toBe('shared (Redis; contact, keys and form tokens in PostgreSQL while Redis is down)');
    }
    // Redis counts while it answers: three posts, and PostgreSQL holds no window.
    expect(await posts([a, b], 3)).toEqual([200, 200, 200]);
    expect(await queryState(a.dataDir, 'SELECT key FROM quota_windows')).toEqual([]);

    await redis.stop();
    // What Redis counted cannot be read from a dead Redis: PostgreSQL's count starts with the
    // outage, one window for both instances (each instance's memory would allow 5 each).
    expect(tally(await posts([a, b], 12))).toEqual({ 200: 5, 429: 7 });
    const windows = await queryState(a.dataDir, 'SELECT key, used FROM quota_windows');
    expect(windows).toEqual([{ key: 'quota:anonymous:contact:127.0.0.1', used: 5 }]);
    const fallback = 'Redis unreachable: quotas are counted in PostgreSQL (reads per instance) until it returns';
    await waitFor(
      () => [a, b].every((instance) => instance.logLines.some((line) => line.message === fallback)),
      'both instances logging the fallback to PostgreSQL',
    );
  });
});
