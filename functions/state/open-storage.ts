import type { Config } from '../config/env.ts';
import { logEvent } from '../log/log.ts';
import { openPostgresStorage, PostgresUnreachable } from './postgres/postgres-storage.ts';
import { openSqliteStorage } from './sqlite/sqlite-storage.ts';
import type { Storage, StorageOptions } from './storage.ts';

/**
 * How long a starting instance waits for PostgreSQL before it gives up: long enough for a
 * database restarting alongside it (a host reboot, a compose stack coming up), short enough that
 * a wrong DATABASE_URL fails the start visibly.
 */
export const POSTGRES_START_WAIT_MS = 30_000;

/** How the storage is opened for the host it runs on (StorageOptions' runtime and slots). */
export type StorageHost = Pick<StorageOptions, 'runtime' | 'slots'>;

/**
 * The engine the configuration selects: PostgreSQL when DATABASE_URL is set (every instance
 * sharing it is one service), else SQLite in DATA_DIR. Each engine loads its driver only when
 * chosen (pg-driver.ts, sqlite/database.ts), so the other's need not even load on this Node.js.
 * A long-lived server connects now, waiting up to `startWaitMs` for a PostgreSQL that does not
 * answer yet; a function instance connects when a store first needs the database.
 */
export async function openStorage(
  config: Config,
  host: StorageHost = {},
  startWaitMs = POSTGRES_START_WAIT_MS,
): Promise<Storage> {
  const options: StorageOptions = { idempotencyTtlMs: config.idempotencyTtlSeconds * 1000, ...host };
  if (config.databaseUrl === null) return openSqliteStorage(config.dataDir, options);
  const deadline = Date.now() + startWaitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await openPostgresStorage(config.databaseUrl, options);
    } catch (error) {
      if (!(error instanceof PostgresUnreachable) || Date.now() >= deadline) throw error;
      const retryInMs = Math.min(2_000, 100 * 2 ** attempt);
      logEvent('PostgreSQL is not reachable yet; retrying', { error: error.message, attempt, retryInMs });
      await new Promise((resolve) => setTimeout(resolve, retryInMs));
    }
  }
}
