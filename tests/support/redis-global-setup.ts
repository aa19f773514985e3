import type { TestProject } from 'vitest/node';
import { HAS_REDIS, startRedis } from './redis.ts';

/** Logical databases of the run's Redis: each test that asks for the shared engine gets one of its own. */
export const REDIS_DATABASES = 4096;

/**
 * One Redis for the whole run (vitest globalSetup): each test takes a logical database of its own
 * (tests/support/engines.ts), so quotas counted by one test file never meet another's. Tests
 * that stop Redis start one of their own (startRedis).
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!HAS_REDIS) {
    project.provide('redisUrl', '');
    return undefined;
  }
  const server = await startRedis(['--databases', String(REDIS_DATABASES)]);
  project.provide('redisUrl', server.url);
  return () => server.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of the run's shared Redis (database 0); '' without Redis. */
    redisUrl: string;
  }
}
