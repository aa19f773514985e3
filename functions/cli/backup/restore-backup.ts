import { copyFileSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makePrivateDir, makePrivateFile } from '../../state/private-files.ts';
import { SchemaTooNew } from '../../state/schema-too-new.ts';
import { databaseFile, openSqlite } from '../../state/sqlite/database.ts';
import { MIGRATIONS } from '../../state/sqlite/migrations.ts';
import { secretFile } from '../../state/file-secret-store.ts';
import { SECRET_NAMES, type SecretName } from '../../state/storage.ts';
import { dropSecrets, readBackup, type BackupContents } from './backup-file.ts';
import { assertNotInUse } from './database-in-use.ts';
import { verifyBackup } from './verify-backup.ts';

/** What was restored, to where. */
export interface RestoreReport {
  database: string;
  contents: BackupContents;
}

/**
 * Puts the backup in `file` back into `dataDir`: the database as `portfolio.db` and each secret
 * as its file, all 0600. An older schema is left as it is (the service migrates it when it starts,
 * as it would the live database); a newer one is refused before anything is written, and so is a
 * damaged one (verifyBackup), leaving DATA_DIR as it was.
 */
export async function restoreBackup(
  file: string,
  dataDir: string,
  { force }: { force: boolean },
): Promise<RestoreReport> {
  const contents = await readBackup(file);
  // Restored, a newer schema would stop the service at start; the version that wrote it can restore it.
  if (contents.schemaVersion > MIGRATIONS.length) {
    throw new SchemaTooNew(contents.schemaVersion, MIGRATIONS.length, file);
  }
  await verifyBackup(file, contents);
  const database = databaseFile(dataDir);
  const present = [database, ...SECRET_NAMES.map((name) => secretFile(dataDir, name))].filter((item) =>
    existsSync(item),
  );
  if (present.length > 0 && !force) {
    throw new Error(
      `DATA_DIR ${dataDir} already holds a deployment (${present.map((item) => path.basename(item)).join(', ')}). ` +
        'Stop the service that uses it (and back it up if you may want it again), then run again with --force to replace it.',
    );
  }
  makePrivateDir(dataDir);
  // Prepared beside its final name, so the database is replaced in one rename.
  const partial = `${database}.${process.pid}.restoring`;
  try {
    rmSync(partial, { force: true });
    makePrivateFile(partial);
    copyFileSync(file, partial);
    makePrivateFile(partial, false); // the copy takes the backup file's mode
    const db = await openSqlite(partial);
    try {
      dropSecrets(db);
    } finally {
      db.close();
    }
    if (existsSync(database)) await assertNotInUse(database);
    // A -wal file of the replaced database would be replayed into the restored one.
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(database + suffix, { force: true });
    renameSync(partial, database);
  } finally {
    rmSync(partial, { force: true });
  }
  writeSecrets(dataDir, contents.secrets);
  return { database, contents };
}

/** The backup's secrets replace DATA_DIR's; one the backup has not is removed, as it was not there either. */
function writeSecrets(dataDir: string, secrets: ReadonlyMap<SecretName, Buffer>): void {
  for (const name of SECRET_NAMES) {
    const target = secretFile(dataDir, name);
    const secret = secrets.get(name);
    if (secret === undefined) {
      rmSync(target, { force: true });
      continue;
    }
    const partial = `${target}.${process.pid}.restoring`;
    writeFileSync(partial, secret, { mode: 0o600 });
    makePrivateFile(partial, false);
    renameSync(partial, target);
  }
}
