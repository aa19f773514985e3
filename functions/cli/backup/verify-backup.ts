import { openSqlite, type Db } from '../../state/sqlite/database.ts';
import { MIGRATIONS } from '../../state/sqlite/migrations.ts';
import { SECRET_BYTES } from '../../state/sqlite/sqlite-secret-store.ts';
import { damagedBackup, type BackupContents } from './backup-file.ts';

/** The tables of a backup that the service's schema does not describe. */
const BACKUP_ONLY = new Set(['backup_secrets']);

/**
 * Checks that a backup can be put in place and started, beyond the file being whole (readBackup
 * ran SQLite's integrity check): its schema is the one its version stands for (every table,
 * column and index the migrations up to that version create), and every secret it holds is
 * whole. Throws one sentence naming the first problem; reads the file only.
 *
 * The schema version must be one this code knows (restoreBackup refuses a newer one first).
 */
export function verifyBackup(file: string, contents: BackupContents): void {
  const damaged = (what: string) => damagedBackup(file, what);
  const db = openSqlite(file, { readonly: true, fileMustExist: true });
  try {
    const missing = missingSchema(db, contents.schemaVersion);
    if (missing !== undefined) throw damaged(`it has schema version ${contents.schemaVersion} but ${missing}`);
  } finally {
    db.close();
  }
  for (const [name, secret] of contents.secrets) {
    if (secret.length !== SECRET_BYTES)
      throw damaged(`its ${name} secret is ${secret.length} bytes, not ${SECRET_BYTES}`);
  }
}

/** What the schema of `version` has and `db` lacks, said in words; undefined when nothing is missing. */
function missingSchema(db: Db, version: number): string | undefined {
  const reference = openSqlite(':memory:');
  try {
    for (const migration of MIGRATIONS.slice(0, version)) reference.exec(migration);
    const expected = schemaOf(reference);
    const found = schemaOf(db);
    for (const [name, columns] of expected) {
      const present = found.get(name);
      if (present === undefined) return `it has no ${name}`;
      const absent = columns.filter((column) => !present.includes(column));
      if (absent.length > 0) return `its ${name} lacks ${absent.join(', ')}`;
    }
    return undefined;
  } finally {
    reference.close();
  }
}

/** Each table (its columns with their declared types) and each index (its columns), by a name that says which it is. */
function schemaOf(db: Db): Map<string, string[]> {
  const objects = db
    .prepare(
      "SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all() as { type: 'table' | 'index'; name: string }[];
  const schema = new Map<string, string[]>();
  for (const { type, name } of objects) {
    if (BACKUP_ONLY.has(name)) continue;
    const columns =
      type === 'table'
        ? (db.prepare('SELECT name, type FROM pragma_table_info(?)').all(name) as { name: string; type: string }[]).map(
            (column) => `column ${column.name} ${column.type}`.trim(),
          )
        : (db.prepare('SELECT name FROM pragma_index_info(?)').all(name) as { name: string | null }[]).map(
            (column) => `column ${column.name ?? '(expression)'}`,
          );
    schema.set(`${type} ${name}`, columns);
  }
  return schema;
}
