import { existsSync } from 'node:fs';
import { databaseFile, openDatabase } from '../../state/sqlite/database.ts';
import { readSecretFiles } from '../../state/file-secret-store.ts';
import type { SecretName } from '../../state/storage.ts';
import { COPIED_TABLES, fromSqlite, type Row, type TableCopy } from './tables.ts';

/** What a SQLite deployment holds that is worth copying, read at one moment. */
export interface SqliteSource {
  file: string;
  rows: ReadonlyMap<TableCopy, Row[]>;
  /** The secrets found in DATA_DIR; one never made (the instance never signed with it) is absent. */
  secrets: ReadonlyMap<SecretName, Buffer>;
}

/**
 * Reads the deployment in `dataDir`. A directory without a database is an error rather than an
 * empty copy: it is most likely the wrong directory. The database is opened as the service opens
 * it, so an older schema is brought up to date and a newer one is refused (SchemaTooNew).
 */
export async function readSqliteSource(dataDir: string, now: number): Promise<SqliteSource> {
  const file = databaseFile(dataDir);
  if (!existsSync(file)) {
    throw new Error(
      `DATA_DIR ${dataDir} holds no database (${file} does not exist): there is nothing to copy. ` +
        "Pass --data-dir, or the instance's environment file (--env-file /etc/portfolio/portfolio.env), or set DATA_DIR, for the directory the SQLite instance used.",
    );
  }
  const db = await openDatabase(dataDir);
  try {
    const rows = new Map(
      COPIED_TABLES.map((copy) => {
        const found = db.prepare(copy.source).all({ now }) as Record<string, unknown>[];
        return [copy, found.map((row) => fromSqlite(copy, row))] as const;
      }),
    );
    return { file, rows, secrets: readSecretFiles(dataDir) };
  } finally {
    db.close();
  }
}
