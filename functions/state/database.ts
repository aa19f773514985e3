import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations.ts';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the service's SQLite database under DATA_DIR and brings its
 * schema up to date. WAL with synchronous=NORMAL makes every committed transaction survive a
 * crash of the process (kill -9): the commit is in the OS before the call returns. Surviving
 * power loss as well would need synchronous=FULL, an fsync per commit.
 */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'portfolio.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

/** Applies the migrations the database has not seen yet, each in its own transaction. */
function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  MIGRATIONS.slice(current).forEach((sql, index) => {
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${current + index + 1}`);
    })();
  });
}
