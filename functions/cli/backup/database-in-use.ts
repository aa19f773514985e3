import { openSqlite, type Db } from '../../state/sqlite/database.ts';

/**
 * Refuses when another process has the database open, as a running service does. In WAL mode a
 * connection holds a shared lock on the database file for as long as it is open, idle or not
 * (on close SQLite takes the exclusive lock to learn whether it was the last connection, and only
 * then checkpoints and deletes the -wal file). So a connection in exclusive locking mode cannot
 * start a write transaction while the service runs; alone, it can, and its close folds any -wal
 * file left by a crash back into the database.
 */
export async function assertNotInUse(database: string): Promise<void> {
  let db: Db;
  try {
    db = await openSqlite(database, { fileMustExist: true, timeout: 1000 });
  } catch {
    return; // Not a database SQLite can open: no service can be using it.
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      throw new Error(
        `${database} is open in another process: the service is running on it. Stop the service first, then restore.`,
        { cause: error },
      );
    }
  } finally {
    db.close();
  }
}
