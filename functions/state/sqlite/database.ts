import type BetterSqlite3 from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SchemaTooNew } from '../schema-too-new.ts';
import { makePrivateDir, makePrivateFile } from '../private-files.ts';
import { MIGRATIONS } from './migrations.ts';

export type Db = BetterSqlite3.Database;

type Driver = typeof BetterSqlite3;

/**
 * The driver, loaded when a database is first opened (Node.js keeps it for the later opens), so a
 * server on PostgreSQL never loads it. Every bundle leaves it out: a native addon is read from
 * node_modules at run time. The addon is built on Node-API, whose binary interface does not change
 * between Node.js releases, and the package carries it prebuilt for the common platforms: one
 * install loads on every supported Node.js line, with nothing compiled.
 */
async function driver(): Promise<Driver> {
  // better-sqlite3 is CommonJS (`module.exports = Database`): Node.js gives it as the default export.
  return (await import('better-sqlite3')).default;
}

/** Opens a SQLite database file (or an in-memory image) through better-sqlite3, loading it first if need be. */
export async function openSqlite(...args: ConstructorParameters<Driver>): Promise<Db> {
  const Database = await driver();
  return new Database(...args);
}

/**
 * Opens (creating if needed) the service's SQLite database under DATA_DIR and brings its
 * schema up to date. WAL with synchronous=NORMAL makes every committed transaction survive a
 * crash of the process (kill -9): the commit is in the OS before the call returns. Surviving
 * power loss as well would need synchronous=FULL, an fsync per commit.
 */
export async function openDatabase(dataDir: string): Promise<Db> {
  try {
    return await openWritable(dataDir);
  } catch (error) {
    if (!READ_ONLY_FAILURES.has((error as { code?: string }).code ?? '')) throw error;
    return openReadOnlyCopy(databaseFile(dataDir));
  }
}

/** The database file in DATA_DIR. */
export function databaseFile(dataDir: string): string {
  return path.join(dataDir, 'portfolio.db');
}

/** How opening fails on a read-only (or not ours to write) DATA_DIR. */
const READ_ONLY_FAILURES = new Set(['EROFS', 'EACCES', 'EPERM', 'SQLITE_CANTOPEN', 'SQLITE_READONLY']);
const readOnlyCopies = new WeakSet<Db>();

/** Whether the database is the read-only stand-in of openReadOnlyCopy: every write fails. */
export function isReadOnly(db: Db): boolean {
  return readOnlyCopies.has(db);
}

/**
 * On a read-only DATA_DIR SQLite cannot open a WAL database at all (it needs the -shm file), so
 * the service reads an in-memory copy of it instead, with `query_only` set: reads keep working
 * and every write fails with SQLITE_READONLY, which handlers answer as 503 storage_unavailable.
 * The copy is of the main file, so changes still in a -wal file of a crashed process are not seen.
 */
async function openReadOnlyCopy(file: string): Promise<Db> {
  let image: Buffer | null = null;
  try {
    image = readFileSync(file);
    // File format bytes 18 and 19 say "WAL"; an in-memory database has no WAL, so say "rollback journal".
    if (image.length >= 20) image.fill(1, 18, 20);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const db = await openSqlite(image ?? ':memory:');
  migrate(db, file);
  db.pragma('query_only = ON');
  readOnlyCopies.add(db);
  return db;
}

/**
 * SQLite creates its files 0644, readable by every user of the machine. The database file is
 * made 0600 before SQLite opens it, and SQLite gives the -wal and -shm files it creates the mode
 * of the database file; files left by an older version are narrowed after the open.
 */
async function openWritable(dataDir: string): Promise<Db> {
  makePrivateDir(dataDir);
  const file = databaseFile(dataDir);
  makePrivateFile(file);
  const db = await openSqlite(file);
  db.pragma('journal_mode = WAL');
  for (const suffix of ['-wal', '-shm']) makePrivateFile(file + suffix, false);
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db, file);
  return db;
}

/** Applies the migrations the database has not seen yet, each in its own transaction. */
function migrate(db: Db, file: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    db.close();
    throw new SchemaTooNew(current, MIGRATIONS.length, file);
  }
  MIGRATIONS.slice(current).forEach((sql, index) => {
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${current + index + 1}`);
    })();
  });
}
