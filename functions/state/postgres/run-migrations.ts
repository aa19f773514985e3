import type { Pool, PoolClient } from 'pg';
import { SchemaTooNew } from '../schema-too-new.ts';
import { MIGRATIONS } from './migrations.ts';

/**
 * The advisory lock that serializes schema changes: migrators running together wait for each
 * other, and each migration is applied once. Any constant works as long as it stays the same.
 */
const MIGRATION_LOCK = 7_361_902_114;

/**
 * How long a migrator waits for another one's lock before it gives up with an error naming the
 * wait. A migration here takes well under a second; a lock held longer is a stuck session,
 * which must not hold this one (and its connection) forever.
 */
const MIGRATION_LOCK_TIMEOUT_MS = 60_000;

/** SQLSTATE undefined_table: a database no migration has touched has no schema_migrations. */
const UNDEFINED_TABLE = '42P01';

/** The schema version a database records: 0 when it has none yet (no schema_migrations table). */
export async function schemaVersion(client: Pick<Pool, 'query'>): Promise<number> {
  try {
    const { rows } = await client.query<{ version: number }>(
      'SELECT COALESCE(MAX(version), 0)::int AS version FROM schema_migrations',
    );
    return rows[0]?.version ?? 0;
  } catch (error) {
    if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return 0;
    throw error;
  }
}

/**
 * Applies the migrations the database has not seen yet, all in one transaction that holds the
 * migration lock: a transaction-level lock (`pg_advisory_xact_lock`) and `SET LOCAL` settings,
 * so nothing outlives the transaction on the connection, which is why this works through a
 * transaction-mode pooler (PgBouncer, Neon's and Supabase's pooled URLs, Hyperdrive) too. The
 * wait for the lock is bounded by `lock_timeout`. A database whose schema is newer than this
 * code knows is left as it is (SchemaTooNew). Returns the versions applied.
 */
export async function runMigrations(
  pool: Pick<Pool, 'connect'>,
  location: string,
  lockTimeoutMs = MIGRATION_LOCK_TIMEOUT_MS,
): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      const applied = await migrateLocked(client, location, lockTimeoutMs);
      await client.query('COMMIT');
      return applied;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
}

async function migrateLocked(client: PoolClient, location: string, lockTimeoutMs: number): Promise<number[]> {
  // A migration may take longer than the pool's statement timeout; SET LOCAL ends with the transaction.
  await client.query('SET LOCAL statement_timeout = 0');
  await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.trunc(lockTimeoutMs))}`);
  await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  await client.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
  );
  const current = await schemaVersion(client);
  if (current > MIGRATIONS.length) throw new SchemaTooNew(current, MIGRATIONS.length, location);
  const applied: number[] = [];
  for (const [index, sql] of MIGRATIONS.entries()) {
    const version = index + 1;
    if (version <= current) continue;
    await client.query(sql);
    await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [version, Date.now()]);
    applied.push(version);
  }
  return applied;
}
