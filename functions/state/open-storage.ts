import type { Config } from '../config/env.ts';
import { openSqliteStorage } from './sqlite/sqlite-storage.ts';
import type { Storage } from './storage.ts';

/**
 * The engine the configuration selects: PostgreSQL when DATABASE_URL is set (every instance
 * sharing it is one service), else SQLite in DATA_DIR. Each engine loads its driver only when
 * chosen, so the other's need not even load on this Node.js.
 */
export async function openStorage(config: Config): Promise<Storage> {
  const options = { idempotencyTtlMs: config.idempotencyTtlSeconds * 1000 };
  if (config.databaseUrl === null) return openSqliteStorage(config.dataDir, options);
  const { openPostgresStorage } = await import('./postgres/postgres-storage.ts');
  return openPostgresStorage(config.databaseUrl, options);
}
