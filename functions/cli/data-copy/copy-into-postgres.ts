import type { Pool, PoolClient } from 'pg';
import { MIGRATIONS } from '../../state/postgres/migrations.ts';
import { createPool } from '../../state/postgres/pg-driver.ts';
import { isUnavailable } from '../../state/postgres/pg-errors.ts';
import { inTransaction } from '../../state/postgres/pg-transaction.ts';
import { redactUrl } from '../../config/redact-url.ts';
import { PostgresUnreachable } from '../../state/postgres/postgres-storage.ts';
import { runMigrations } from '../../state/postgres/run-migrations.ts';
import { SchemaTooNew } from '../../state/schema-too-new.ts';
import { describeKey, insertRows, planTable, type TablePlan } from './copy-rows.ts';
import { planSecrets, writeSecrets, type SecretsPlan } from './copy-secrets.ts';
import type { SqliteSource } from './sqlite-source.ts';
import { COPIED_TABLES, type TableCopy } from './tables.ts';

export interface CopyOptions {
  /** Compare only: nothing is written, not even the schema. */
  dryRun: boolean;
  /** Overwrite secrets PostgreSQL already holds with other values (else PostgreSQL's are kept). */
  replaceSecrets: boolean;
}

export interface CopyReport {
  /** The database, as logs may show it (without its password). */
  location: string;
  tables: TablePlan[];
  secrets: SecretsPlan;
}

/** PostgreSQL holds other rows under keys the copy would use: it has been used by other instances. */
class CopyConflict extends Error {
  constructor(plans: readonly TablePlan[]) {
    const clashes = plans.flatMap((plan) =>
      plan.conflicts.map((row) => `${plan.copy.table} ${describeKey(plan.copy, row)}`),
    );
    const shown = clashes.slice(0, 5).join('; ') + (clashes.length > 5 ? `; and ${clashes.length - 5} more` : '');
    super(
      `PostgreSQL already holds other rows under keys this copy would use (${shown}). ` +
        'That database has been used by other instances; copying into it would mix two histories under the same ids, ' +
        'so nothing was copied. Copy into a database no instance has written to.',
    );
    this.name = 'CopyConflict';
  }
}

/**
 * The copy is one transaction: every table is compared first, and a conflict anywhere stops it
 * before the first row is written. The tables are locked against writes for its length, so an
 * instance already running on PostgreSQL cannot take an id between the comparison and the insert.
 * A large inbox may take longer than the pool's statement timeout; waiting for the lock may not.
 */
const WRITE_BEGIN = `BEGIN; SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = '10s';
  LOCK TABLE ${[...COPIED_TABLES.map((copy) => copy.table), 'app_secrets'].join(', ')} IN SHARE ROW EXCLUSIVE MODE`;

/** Copies `source` into the PostgreSQL at `url`, whose schema is brought up to date first. */
export async function copyIntoPostgres(url: string, source: SqliteSource, options: CopyOptions): Promise<CopyReport> {
  const location = redactUrl(url);
  const pool = await createPool(url);
  try {
    const hasSchema = options.dryRun ? await schemaExists(pool, location) : await migrated(pool, location);
    return await inTransaction(
      pool,
      async (client) => ({ location, ...(await copyInTransaction(client, source, options, hasSchema)) }),
      options.dryRun ? 'BEGIN READ ONLY' : WRITE_BEGIN,
    );
  } catch (error) {
    if (isUnavailable(error)) throw new PostgresUnreachable(location, { cause: error });
    throw error;
  } finally {
    await pool.end();
  }
}

async function copyInTransaction(
  client: PoolClient,
  source: SqliteSource,
  options: CopyOptions,
  hasSchema: boolean,
): Promise<Omit<CopyReport, 'location'>> {
  const tables: TablePlan[] = [];
  for (const copy of COPIED_TABLES) tables.push(await planTable(client, copy, source.rows.get(copy) ?? [], hasSchema));
  if (tables.some((plan) => plan.conflicts.length > 0)) throw new CopyConflict(tables);
  const secrets = await planSecrets(client, source.secrets, hasSchema);
  if (options.dryRun) return { tables, secrets };

  for (const plan of tables) {
    await insertRows(client, plan.copy, plan.missing);
    if (plan.copy.serial !== null && plan.missing.length > 0) await moveSequence(client, plan.copy, plan.copy.serial);
  }
  await writeSecrets(
    client,
    options.replaceSecrets ? new Map([...secrets.missing, ...secrets.differing]) : secrets.missing,
  );
  return { tables, secrets };
}

/**
 * Copied rows keep their ids (messages theirs), which the id sequence knows nothing of: it is
 * moved past the highest, never back (an instance may have used higher ids and deleted them since).
 */
async function moveSequence(client: PoolClient, copy: TableCopy, column: string): Promise<void> {
  await client.query(`
    SELECT setval(seq, GREATEST((SELECT MAX(${column}) FROM ${copy.table}), COALESCE(pg_sequence_last_value(seq), 0)))
    FROM (SELECT pg_get_serial_sequence('${copy.table}', '${column}')::regclass AS seq) AS serial`);
}

async function migrated(pool: Pool, location: string): Promise<true> {
  await runMigrations(pool, location);
  return true;
}

/** For a dry run, which may not create the schema: whether it exists, refusing one newer than this code. */
async function schemaExists(pool: Pool, location: string): Promise<boolean> {
  const table = await pool.query<{ found: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS found");
  if (table.rows[0]?.found !== true) return false;
  const { rows } = await pool.query<{ version: number }>(
    'SELECT COALESCE(MAX(version), 0)::int AS version FROM schema_migrations',
  );
  const version = rows[0]?.version ?? 0;
  if (version > MIGRATIONS.length) throw new SchemaTooNew(version, MIGRATIONS.length, location);
  return version > 0;
}
