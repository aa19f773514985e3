import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { freshDatabaseUrl, migrateDatabase } from './postgres.ts';
import { REDIS_DATABASES } from './redis-global-setup.ts';

/**
 * The engine a test run's stateful tests use: `embedded` (SQLite in DATA_DIR, quotas in memory,
 * the default) or `shared` (PostgreSQL and Redis, as several instances run it). The vitest
 * projects `api` and `api-shared` (and `system` and `system-shared`) run the same test files,
 * once per engine: the project sets TEST_ENGINE, and every service a test starts
 * (tests/support/api.ts, service.ts, server.ts) and every look into its inbox
 * (tests/support/contact.ts) takes its environment from engineEnv.
 */
export const TEST_ENGINE: 'embedded' | 'shared' = process.env.TEST_ENGINE === 'shared' ? 'shared' : 'embedded';

/**
 * A data directory stands for one deployment's state: on the shared engine it gets a database
 * and a Redis database of its own the first time it is seen, and the same ones ever after, so a
 * restart on the same DATA_DIR finds its state as on SQLite.
 */
const sharedStateOf = new Map<string, Promise<Record<string, string>>>();

/** The variables that select the run's engine for the deployment in `dataDir`: none on the embedded engine. */
export function engineEnv(dataDir: string): Promise<Record<string, string>> {
  if (TEST_ENGINE === 'embedded') return Promise.resolve({});
  let env = sharedStateOf.get(dataDir);
  if (env === undefined) {
    env = Promise.all([freshDatabaseUrl(), freshRedisUrl()]).then(([database, redis]) => ({
      DATABASE_URL: database,
      REDIS_URL: redis,
    }));
    sharedStateOf.set(dataDir, env);
  }
  return env;
}

/**
 * engineEnv for a function deployment, with its database migrated as the deploy step does
 * (`npm run migrate`): a function instance only checks the schema.
 */
export async function functionEngineEnv(dataDir: string): Promise<Record<string, string>> {
  const env = await engineEnv(dataDir);
  if (env.DATABASE_URL !== undefined) await migrateDatabase(env.DATABASE_URL);
  return env;
}

/**
 * Says that the deployment in `dataDir` keeps its state on the given servers (DATABASE_URL,
 * REDIS_URL) instead of fresh databases on the run's own: for a test that starts its own
 * PostgreSQL and Redis (to stop them) and several instances that share them. Every helper that
 * takes a data directory (startServer, runInbox, storedInbox, queryState) then uses these.
 */
export function bindEngineEnv(dataDir: string, env: { DATABASE_URL: string; REDIS_URL: string }): void {
  sharedStateOf.set(dataDir, Promise.resolve({ ...env }));
}

/** A logical database of the run's Redis that no other test uses (numbered by a counter in database 0). */
export async function freshRedisUrl(): Promise<string> {
  const url = inject('redisUrl');
  if (url === '') throw new Error('No Redis in this run: check HAS_REDIS first');
  const counter = new Redis(url, { lazyConnect: true });
  try {
    await counter.connect();
    const index = await counter.incr('test:databases');
    if (index >= REDIS_DATABASES) throw new Error(`The run's Redis has only ${REDIS_DATABASES} databases`);
    return `${url}/${index}`;
  } finally {
    counter.disconnect();
  }
}
