import type { StorageEngine } from './storage.ts';

/**
 * What a column holds, the same on both engines; each engine declares it in a type of its own
 * (SQL_TYPES). Times are epoch milliseconds; JSON is kept as its text.
 */
type ColumnKind = 'serial' | 'integer' | 'bigint' | 'real' | 'boolean' | 'time' | 'text' | 'json' | 'bytes';

/**
 * The type each engine declares a kind of column as: SQLite's as `PRAGMA table_info` shows it,
 * PostgreSQL's as `information_schema.columns.data_type` does. SQLite's INTEGER is 64 bits wide,
 * and it has no boolean: it holds false and true as 0 and 1 (sqliteToPostgres).
 */
export const SQL_TYPES: Record<ColumnKind, Record<StorageEngine, string>> = {
  serial: { sqlite: 'INTEGER', postgresql: 'bigint' },
  integer: { sqlite: 'INTEGER', postgresql: 'integer' },
  bigint: { sqlite: 'INTEGER', postgresql: 'bigint' },
  real: { sqlite: 'REAL', postgresql: 'double precision' },
  boolean: { sqlite: 'INTEGER', postgresql: 'boolean' },
  time: { sqlite: 'INTEGER', postgresql: 'bigint' },
  text: { sqlite: 'TEXT', postgresql: 'text' },
  json: { sqlite: 'TEXT', postgresql: 'text' },
  bytes: { sqlite: 'BLOB', postgresql: 'bytea' },
};

/** A column both engines have, or one that only `only` has (the comment at it says why). */
type ColumnSpec = ColumnKind | { kind: ColumnKind; only: StorageEngine };

/** How `npm run data:copy` carries a table from SQLite into PostgreSQL. */
interface CopySpec<Name extends string> {
  /**
   * The columns a row is recognised by (all of them when absent). A row in PostgreSQL with the
   * same key and other values here is someone else's (the database was used by other instances);
   * one that differs only in the other columns is this row with state that moved on there after
   * an earlier copy, and PostgreSQL's is kept.
   */
  identity?: readonly Name[];
  /** Which SQLite rows are worth copying, as an SQL condition; `@now` is the time of the copy (epoch ms). */
  where?: string;
  /** The order rows are read and copied in. */
  orderBy: readonly Name[];
}

interface TableSpec<Name extends string> {
  /** The columns, in the order a fresh PostgreSQL has them. */
  columns: Record<Name, ColumnSpec>;
  /** The primary key's columns. */
  key: readonly Name[];
  /** Set for a table that only one engine has. */
  only?: StorageEngine;
  /** Set for a table data:copy carries; the others are left behind (their comment says why). */
  copy?: CopySpec<Name>;
}

/** Checks the names a table's key and copy use against its columns, and keeps the literal types. */
function table<const Name extends string>(
  spec: { columns: Record<Name, ColumnSpec> } & Omit<TableSpec<NoInfer<Name>>, 'columns'>,
): TableSpec<Name> {
  return spec;
}

/**
 * Every table of the durable state, on both engines, once: the migrations of each engine
 * (sqlite/migrations.ts, postgres/migrations.ts) must build exactly these tables and columns,
 * which tests/api/table-description.test.ts checks on freshly migrated databases, and data:copy
 * (cli/data-copy/tables.ts) copies what is described here. A table comes after every table it
 * references, the order data:copy writes in. Bookkeeping is not described: PostgreSQL's
 * schema_migrations (SQLite keeps its version in `PRAGMA user_version`) and SQLite's own tables.
 */
export const TABLES = {
  /**
   * The inbox: every message, spam included, with its id (the inbox, replays and webhook receivers
   * know messages by it). What a visitor wrote identifies it; whether it was read since, or moved
   * out of the spam folder, is state.
   */
  messages: table({
    columns: {
      id: 'serial',
      sandbox: 'boolean',
      name: 'text',
      email: 'text',
      message: 'text',
      created_at: 'time',
      read_at: 'time',
      folder: 'text',
      spam_reasons: 'json',
      sandbox_client: 'text',
      sandbox_key: 'text',
      size_bytes: 'integer',
    },
    key: ['id'],
    copy: { identity: ['id', 'sandbox', 'name', 'email', 'message', 'created_at'], orderBy: ['id'] },
  }),
  /**
   * The outbox: each message's delivery per channel, so a delivered message is not sent again and
   * a pending one is sent from PostgreSQL after a copy. A row is its message and channel; its state
   * moves on like a read mark.
   */
  deliveries: table({
    columns: {
      message_id: 'bigint',
      channel: 'text',
      state: 'text',
      attempts: 'integer',
      next_at: 'time',
      last_error: 'text',
    },
    key: ['message_id', 'channel'],
    copy: { identity: ['message_id', 'channel'], orderBy: ['message_id', 'channel'] },
  }),
  /**
   * Each sandbox share's total bytes, kept by triggers on messages whatever inserts or deletes one,
   * so data:copy leaves it to PostgreSQL's triggers as the copied messages arrive.
   */
  sandbox_shares: table({
    columns: { owner: 'text', bytes: 'bigint' },
    key: ['owner'],
  }),
  /**
   * A key's recorded answer (and on PostgreSQL its claim while in flight). data:copy carries the
   * answers still replayable, so a client retrying across the move gets its replay rather than a
   * second message; a claim in flight belonged to the stopped process.
   */
  idempotency: table({
    columns: {
      scope: 'text',
      sandbox: 'boolean',
      key: 'text',
      state: 'text',
      // SQLite's claims live in the process that owns DATA_DIR (sqlite/in-flight-keys.ts): no token, no lease.
      token: { kind: 'text', only: 'postgresql' },
      locked_until: { kind: 'time', only: 'postgresql' },
      fingerprint: 'text',
      status: 'integer',
      body: 'text',
      created_at: 'time',
      expires_at: 'time',
    },
    key: ['scope', 'sandbox', 'key'],
    copy: { where: "state = 'done' AND expires_at > @now", orderBy: ['created_at', 'scope', 'key'] },
  }),
  /** Jobs, which data:copy leaves behind: they live minutes, and a running one belongs to its process. */
  jobs: table({
    columns: {
      id: 'text',
      // Orders jobs created in the same millisecond, as SQLite's rowid does there.
      seq: { kind: 'serial', only: 'postgresql' },
      sandbox: 'boolean',
      owner: 'text',
      task: 'text',
      input: 'json',
      status: 'text',
      progress: 'real',
      result: 'json',
      error: 'json',
      attempts: 'integer',
      locked_by: 'text',
      lease_until: 'time',
      created_at: 'time',
      updated_at: 'time',
      expires_at: 'time',
    },
    key: ['id'],
  }),
  /** Test keys, by the hash of the key; data:copy carries those still valid (an expired one verifies nowhere). */
  api_keys: table({
    columns: {
      id: 'text',
      hash: 'text',
      label: 'text',
      created_in_sandbox: 'boolean',
      created_at: 'time',
      expires_at: 'time',
    },
    key: ['id'],
    copy: { where: 'expires_at > @now', orderBy: ['id'] },
  }),
  /** The signing secrets; SQLite keeps them as files beside its database (file-secret-store.ts), which data:copy reads. */
  app_secrets: table({
    columns: { name: 'text', value: 'bytes' },
    key: ['name'],
    only: 'postgresql',
  }),
  /**
   * The quotas counted in PostgreSQL (postgres/pg-quota-counts.ts): per quota and client, when
   * its window ends and how many units it counted. SQLite's instance counts its quotas in memory,
   * and data:copy leaves these behind: a window lasts minutes, and the copy starts every one anew.
   */
  quota_windows: table({
    columns: { key: 'text', window_ends: 'time', used: 'integer' },
    key: ['key'],
    only: 'postgresql',
  }),
};

export type TableName = keyof typeof TABLES;

/** The names of a table's described columns, for lists the type checker holds to the description. */
export type ColumnName<T extends TableName> = keyof (typeof TABLES)[T]['columns'] & string;

export interface DescribedColumn {
  name: string;
  kind: ColumnKind;
}

/** The tables `engine` has, in the described order. */
export function tablesOn(engine: StorageEngine): TableName[] {
  return (Object.keys(TABLES) as TableName[]).filter((name) => (TABLES[name].only ?? engine) === engine);
}

/** The columns `engine` has of `table`, in the described order. */
export function columnsOn(table: TableName, engine: StorageEngine): DescribedColumn[] {
  return Object.entries<ColumnSpec>(TABLES[table].columns).flatMap(([name, spec]) => {
    const { kind, only } = typeof spec === 'string' ? { kind: spec, only: engine } : spec;
    return only === engine ? [{ name, kind }] : [];
  });
}

/**
 * A value as PostgreSQL holds it, from the value SQLite holds in a column of `kind`. Only booleans
 * differ (SQLite's 0 and 1); times are the same integers and JSON the same text on both, and the
 * one column of bytes (app_secrets.value) is PostgreSQL's alone.
 */
export function sqliteToPostgres(kind: ColumnKind, value: unknown): unknown {
  return kind === 'boolean' && value !== null ? value === 1 || value === true : value;
}
