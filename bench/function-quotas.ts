import type { ThrowawayRedis } from '../tests/support/redis.ts';
import { contactRequest, functionInstance, readRequest } from './function-instances.ts';

/** The contact quota the bench sets: LIMIT posts per 600 s, and how many one client sends. */
export const QUOTA = { limit: 5, posts: 9 };

/**
 * Two function instances on one database, CONTACT_RATE_LIMIT=5/600, and one client sending 9
 * contact posts to them by turns: how many answers of each status. With `redis`, the instances
 * are given REDIS_URL and each answers a read first, then that Redis is stopped before the
 * posts, so the count must fall back to PostgreSQL.
 */
export async function quotaAnswers(databaseUrl: string, redis?: ThrowawayRedis): Promise<Record<string, number>> {
  const env = {
    DATABASE_URL: databaseUrl,
    CONTACT_RATE_LIMIT: `${QUOTA.limit}/600`,
    ...(redis === undefined ? {} : { REDIS_URL: redis.url }),
  };
  const instances = [functionInstance(env), functionInstance(env)];
  const client = { clientIp: '203.0.113.7' };
  try {
    if (redis !== undefined) {
      for (const instance of instances) await (await instance.fetch(readRequest(), client)).arrayBuffer();
      await redis.stop();
    }
    const statuses: Record<string, number> = {};
    for (let post = 0; post < QUOTA.posts; post++) {
      const response = await instances[post % 2]!.fetch(
        contactRequest(`A quota check message, number ${post}`),
        client,
      );
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
    return statuses;
  } finally {
    await Promise.all(instances.map((instance) => instance.close()));
  }
}
