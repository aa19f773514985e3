import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgresStorage } from '../../functions/state/postgres/postgres-storage.ts';
import { openSqliteStorage } from '../../functions/state/sqlite/sqlite-storage.ts';
import type { Storage } from '../../functions/state/storage.ts';
import { freshDatabaseUrl, HAS_POSTGRES } from './postgres.ts';

/** How long a recorded Idempotency-Key answer is kept, in the contract suites. */
export const CONTRACT_TTL_MS = 60_000;

/** One storage engine as the store contracts see it. */
export interface StoreEngine {
  name: 'SQLite' | 'PostgreSQL';
  skip: boolean;
  /** Idempotency claims lapse after their lease (PostgreSQL); on SQLite they end with their process. */
  claimsLapse: boolean;
  /** A new, empty storage (a new data directory, a new database). */
  open: () => Promise<Storage>;
  /**
   * `count` instances of the service sharing one new, empty state: on PostgreSQL each has a pool of
   * its own on one database; on SQLite one process owns a DATA_DIR, so every instance is its one storage.
   */
  instances: (count: number) => Promise<Storage[]>;
  /** The state `storage` holds, opened again after closing it, as a restart of the service does. */
  reopen: (storage: Storage) => Promise<Storage>;
  /** Runs one SQL statement on `storage`'s state past the stores (placeholders written `?`); its rows. */
  sql: (storage: Storage, text: string, ...params: unknown[]) => Promise<Record<string, unknown>[]>;
}

/**
 * The storage engines a store contract runs on, for `describe.each`; everything they open is
 * closed by `closeOpened()`.
 */
export const STORE_ENGINES: StoreEngine[] = [
  {
    name: 'SQLite',
    skip: false,
    claimsLapse: false,
    open: async () => openSqliteAt(newDataDir()),
    instances: async (count) => Array<Storage>(count).fill(await openSqliteAt(newDataDir())),
    reopen: async (storage) => {
      await forget(storage);
      return openSqliteAt(path.dirname(storage.location));
    },
    sql: async (storage, text, ...params) => {
      // A second connection, enforcing foreign keys as the engine's own does.
      const db = new Database(storage.location);
      try {
        db.pragma('foreign_keys = ON');
        const statement = db.prepare(text);
        if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
        statement.run(...params);
        return [];
      } finally {
        db.close();
      }
    },
  },
  {
    name: 'PostgreSQL',
    skip: !HAS_POSTGRES,
    claimsLapse: true,
    open: async () => openPostgresAt(await freshDatabaseUrl()),
    instances: async (count) => {
      const url = await freshDatabaseUrl();
      return Promise.all(Array.from({ length: count }, () => openPostgresAt(url)));
    },
    reopen: async (storage) => {
      await forget(storage);
      return openPostgresAt(urlOf.get(storage) as string);
    },
    sql: async (storage, text, ...params) => {
      const client = new pg.Client({ connectionString: urlOf.get(storage), types: BIGINT_AS_NUMBER });
      await client.connect();
      let index = 0;
      try {
        const result = await client.query(
          text.replace(/\?/g, () => `$${++index}`),
          params,
        );
        return result.rows as Record<string, unknown>[];
      } finally {
        await client.end();
      }
    },
  },
];

/** BIGINT (counts, epoch milliseconds) as numbers, as SQLite gives them. */
const BIGINT_AS_NUMBER = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? Number : (pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown),
} as pg.CustomTypesConfig;

const dirs: string[] = [];
const opened: Storage[] = [];
/** Where each PostgreSQL storage was opened (its location has the password taken out). */
const urlOf = new WeakMap<Storage, string>();

function newDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'store-contract-'));
  dirs.push(dir);
  return dir;
}

async function openSqliteAt(dataDir: string): Promise<Storage> {
  return remember(await openSqliteStorage(dataDir, { idempotencyTtlMs: CONTRACT_TTL_MS }));
}

async function openPostgresAt(url: string): Promise<Storage> {
  const storage = remember(await openPostgresStorage(url, { idempotencyTtlMs: CONTRACT_TTL_MS }));
  urlOf.set(storage, url);
  return storage;
}

function remember(storage: Storage): Storage {
  opened.push(storage);
  return storage;
}

async function forget(storage: Storage): Promise<void> {
  opened.splice(opened.indexOf(storage), 1);
  await storage.close();
}

/** Closes every storage the suites opened and removes their data directories (for afterAll). */
export async function closeOpened(): Promise<void> {
  await Promise.all([...new Set(opened.splice(0))].map((storage) => storage.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
