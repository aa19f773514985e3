import type { Pool } from 'pg';
import { SchemaTooNew } from '../schema-too-new.ts';
import { MIGRATIONS } from './migrations.ts';

/**
 * The advisory lock that serializes schema changes: instances starting together wait for each
 * other, and each migration is applied once. Any constant works as long as it stays the same.
 */
const MIGRATION_LOCK = 7_361_902_114;

/**
 * Applies the migrations the database has not seen yet, each in its own transaction, holding the
 * migration lock on one connection. A database whose schema is newer than this code knows is
 * left as it is (SchemaTooNew).
 */
export async function runMigrations(pool: Pool, location: string): Promise<void> {
  const client = await pool.connect();
  try {
    // A migration may take longer than the pool's statement timeout, and so may waiting for
    // another instance's; this connection is closed afterwards, so the setting ends with it.
    await client.query('SET statement_timeout = 0');
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
    );
    const { rows } = await client.query<{ current: number }>(
      'SELECT COALESCE(MAX(version), 0)::int AS current FROM schema_migrations',
    );
    const current = rows[0]?.current ?? 0;
    if (current > MIGRATIONS.length) throw new SchemaTooNew(current, MIGRATIONS.length, location);
    for (const [index, sql] of MIGRATIONS.entries()) {
      const version = index + 1;
      if (version <= current) continue;
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [
          version,
          Date.now(),
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    }
  } finally {
    // Closing the connection also releases the advisory lock (it belongs to the session).
    client.release(true);
  }
}
