import { existsSync, renameSync, rmSync } from 'node:fs';
import { makePrivateFile } from '../../state/private-files.ts';
import { databaseFile, openSqlite } from '../../state/sqlite/database.ts';
import { readSecretFiles } from '../../state/file-secret-store.ts';
import { addSecrets, readBackup, type BackupContents } from './backup-file.ts';

/** What was backed up, from where. */
export interface BackupReport {
  database: string;
  contents: BackupContents;
}

/**
 * Writes a backup of the deployment in `dataDir` to `file`, while the service runs or not.
 * The file appears complete or not at all: it is written beside its final name, made 0600 before
 * any byte goes in (it holds messages and secrets), and renamed into place at the end. The
 * database is copied whatever its schema version: the version that wrote it can restore it.
 */
export async function makeBackup(dataDir: string, file: string, { force }: { force: boolean }): Promise<BackupReport> {
  const database = databaseFile(dataDir);
  if (!existsSync(database)) {
    throw new Error(
      `DATA_DIR ${dataDir} holds no database (${database} does not exist): there is nothing to back up. ` +
        'Set DATA_DIR to the directory the service uses.',
    );
  }
  if (existsSync(file) && !force) {
    throw new Error(`${file} exists already: choose another name, or pass --force to replace it.`);
  }
  const partial = `${file}.${process.pid}.partial`;
  try {
    rmSync(partial, { force: true });
    makePrivateFile(partial);
    await copyDatabase(database, partial);
    const backup = await openSqlite(partial);
    try {
      addSecrets(backup, readSecretFiles(dataDir));
    } finally {
      backup.close();
    }
    const contents = await readBackup(partial);
    renameSync(partial, file);
    return { database, contents };
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * `VACUUM INTO` rather than the online backup API (better-sqlite3's `db.backup()`): both give a
 * consistent copy, but the backup API copies a few pages per step and starts over whenever
 * another process writes to the database in between, so under steady contact traffic a large
 * database might never finish copying. VACUUM INTO reads everything in one read transaction: in
 * WAL mode that is one snapshot, taken without blocking the service's writers, and it includes
 * the commits still in the -wal file that a plain copy of portfolio.db misses. Its output is a
 * single compact file in rollback-journal mode, with no -wal beside it to forget.
 *
 * The database is opened read-only: a backup never writes to the live database.
 */
async function copyDatabase(database: string, target: string): Promise<void> {
  const db = await openSqlite(database, { readonly: true, fileMustExist: true });
  try {
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
}
