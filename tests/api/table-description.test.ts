import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Pool } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { copyIntoPostgres } from '../../functions/cli/data-copy/copy-into-postgres.ts';
import { readSqliteSource } from '../../functions/cli/data-copy/sqlite-source.ts';
import { COPIED_TABLES } from '../../functions/cli/data-copy/tables.ts';
import { createPool } from '../../functions/state/postgres/pg-driver.ts';
import { openPostgresStorage } from '../../functions/state/postgres/postgres-storage.ts';
import { openDatabase, type Db } from '../../functions/state/sqlite/database.ts';
import type { StorageEngine } from '../../functions/state/storage.ts';
import { columnsOn, SQL_TYPES, TABLES, tablesOn, type TableName } from '../../functions/state/tables.ts';
import { freshDatabaseUrl, HAS_POSTGRES } from '../support/postgres.ts';

/**
 * The description of the tables (functions/state/tables.ts) against what each engine's migrations
 * build on a fresh database, and data:copy, derived from it, carrying every described column.
 */

/** A schema as the comparison sees it: per table, its columns (`name type`) and its primary key. */
type Schema = Record<string, { columns: string[]; key: string[] }>;

/**
 * The described schema of `engine`. Columns are described in PostgreSQL's order; SQLite's differ
 * (it appends every column added later), so there they are compared sorted.
 */
function described(engine: StorageEngine): Schema {
  return Object.fromEntries(
    tablesOn(engine).map((table) => {
      const columns = columnsOn(table, engine).map(({ name, kind }) => `${name} ${SQL_TYPES[kind][engine]}`);
      return [table, { columns: engine === 'sqlite' ? columns.sort() : columns, key: [...TABLES[table].key] }];
    }),
  );
}

const dirs: string[] = [];
const pools: Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new DATA_DIR whose database the SQLite engine has just opened, and so migrated. */
async function freshSqlite(): Promise<{ dataDir: string; db: Db }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'table-description-'));
  dirs.push(dataDir);
  return { dataDir, db: await openDatabase(dataDir) };
}

/** A new database that the PostgreSQL engine has just opened, and so migrated, with a pool on it. */
async function freshPostgres(): Promise<{ url: string; pool: Pool }> {
  const url = await freshDatabaseUrl();
  await (await openPostgresStorage(url, { idempotencyTtlMs: 60_000 })).close();
  const pool = await createPool(url);
  pools.push(pool);
  return { url, pool };
}

/** SQLite's tables (its own, sqlite_*, left out) with their columns and primary keys, and what each references. */
function sqliteSchema(db: Db): { schema: Schema; references: Record<string, string[]> } {
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .pluck()
    .all() as string[];
  const schema: Schema = {};
  const references: Record<string, string[]> = {};
  for (const table of tables) {
    const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string; pk: number }[];
    schema[table] = {
      columns: columns.map(({ name, type }) => `${name} ${type.toUpperCase()}`).sort(),
      key: columns
        .filter((column) => column.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((column) => column.name),
    };
    const foreign = db.prepare(`PRAGMA foreign_key_list(${table})`).all() as { table: string }[];
    references[table] = foreign.map((reference) => reference.table);
  }
  return { schema, references };
}

/** PostgreSQL's tables (its migrations' bookkeeping, schema_migrations, left out), as sqliteSchema. */
async function postgresSchema(pool: Pool): Promise<{ schema: Schema; references: Record<string, string[]> }> {
  const { rows: columns } = await pool.query<{ table_name: string; column_name: string; data_type: string }>(`
    SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns AS c
    JOIN information_schema.tables AS t USING (table_schema, table_name)
    WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'
    ORDER BY c.ordinal_position`);
  const { rows: keys } = await pool.query<{ table_name: string; column_name: string }>(`
    SELECT k.table_name, k.column_name FROM information_schema.table_constraints AS c
    JOIN information_schema.key_column_usage AS k USING (constraint_schema, constraint_name)
    WHERE c.constraint_type = 'PRIMARY KEY' AND c.table_schema = 'public' ORDER BY k.ordinal_position`);
  const { rows: foreign } = await pool.query<{ table_name: string; referenced: string }>(`
    SELECT conrelid::regclass::text AS table_name, confrelid::regclass::text AS referenced
    FROM pg_constraint WHERE contype = 'f'`);
  const schema: Schema = {};
  const references: Record<string, string[]> = {};
  for (const { table_name, column_name, data_type } of columns) {
    schema[table_name] ??= { columns: [], key: [] };
    schema[table_name].columns.push(`${column_name} ${data_type}`);
    references[table_name] ??= [];
  }
  for (const { table_name, column_name } of keys) schema[table_name]?.key.push(column_name);
  for (const { table_name, referenced } of foreign) references[table_name]?.push(referenced);
  return { schema, references };
}

/** The tables that come, in the described order, before a table they reference. */
function referencedLater(references: Record<string, string[]>): string[] {
  const order = Object.keys(TABLES);
  return Object.entries(references).flatMap(([table, referenced]) =>
    referenced.filter((other) => order.indexOf(other) >= order.indexOf(table)).map((other) => `${table} -> ${other}`),
  );
}

describe('the described tables', () => {
  it('are the tables and columns a freshly migrated SQLite database has, by name, type and primary key', async () => {
    const { db } = await freshSqlite();
    try {
      const { schema, references } = sqliteSchema(db);
      expect(schema).toEqual(described('sqlite'));
      expect(referencedLater(references)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it.skipIf(!HAS_POSTGRES)(
    'are the tables and columns a freshly migrated PostgreSQL database has, in order, by name, type and primary key',
    async () => {
      const { pool } = await freshPostgres();
      const { schema, references } = await postgresSchema(pool);
      expect(schema).toEqual(described('postgresql'));
      expect(referencedLater(references)).toEqual([]);
    },
  );
});

const NOW = 1_800_000_000_000;
const LATER = NOW + 86_400_000;

/**
 * One row per copied table with every column SQLite has set, none to its default: a column that
 * data:copy dropped would come out null or default in PostgreSQL.
 */
const EVERY_COLUMN: Partial<Record<TableName, Record<string, string | number>>> = {
  messages: {
    id: 41,
    sandbox: 1,
    name: 'Ada',
    email: 'ada@example.com',
    message: 'Every column set',
    created_at: NOW - 3,
    read_at: NOW - 2,
    folder: 'spam',
    spam_reasons: '["links"]',
    sandbox_client: '192.0.2.1',
    sandbox_key: 'key-41',
    size_bytes: 16,
  },
  deliveries: {
    message_id: 41,
    channel: 'email',
    state: 'failed',
    attempts: 3,
    next_at: NOW - 1,
    last_error: 'HTTP 500',
  },
  idempotency: {
    scope: 'contact:192.0.2.1',
    sandbox: 1,
    key: 'every-column',
    state: 'done',
    fingerprint: 'fp',
    status: 201,
    body: '{"id":41}',
    created_at: NOW - 3,
    expires_at: LATER,
  },
  api_keys: {
    id: 'key-41',
    hash: 'hash-41',
    label: 'Every column',
    created_in_sandbox: 1,
    created_at: NOW - 4,
    expires_at: LATER,
  },
};

describe.skipIf(!HAS_POSTGRES)('data:copy, derived from the description', () => {
  it('carries every described column of a row with every column set', async () => {
    const copied = COPIED_TABLES.map((copy) => copy.table);
    expect(copied).toEqual(Object.keys(EVERY_COLUMN));
    const { dataDir, db } = await freshSqlite();
    try {
      for (const table of copied) {
        const row = EVERY_COLUMN[table]!;
        expect(Object.keys(row).sort(), table).toEqual(
          columnsOn(table, 'sqlite')
            .map(({ name }) => name)
            .sort(),
        );
        const names = Object.keys(row);
        db.prepare(
          `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((name) => `@${name}`).join(', ')})`,
        ).run(row);
      }
    } finally {
      db.close();
    }

    const { url, pool } = await freshPostgres();
    await copyIntoPostgres(url, await readSqliteSource(dataDir, NOW), { dryRun: false, replaceSecrets: false });

    for (const table of copied) {
      // Every boolean above is SQLite's 1; the columns only PostgreSQL has keep their defaults (null).
      const expected = Object.fromEntries(
        columnsOn(table, 'postgresql').map(({ name, kind }) => [
          name,
          kind === 'boolean' ? true : (EVERY_COLUMN[table]![name] ?? null),
        ]),
      );
      const { rows } = await pool.query(`SELECT * FROM ${table}`);
      expect(rows, table).toEqual([expected]);
    }
    // The sandbox share's total followed the message, and the next message id comes after the copied one.
    expect((await pool.query('SELECT owner, bytes FROM sandbox_shares ORDER BY owner')).rows).toEqual([
      { owner: 'client:192.0.2.1', bytes: 16 },
      { owner: 'key:key-41', bytes: 16 },
    ]);
    const { rows } = await pool.query<{ id: number }>("SELECT nextval(pg_get_serial_sequence('messages', 'id')) AS id");
    expect(rows[0]!.id).toBeGreaterThan(41);
  });
});
