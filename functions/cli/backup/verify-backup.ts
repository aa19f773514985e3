import { openSqlite, type Db } from '../../state/sqlite/database.ts';
import { MIGRATIONS } from '../../state/sqlite/migrations.ts';
import { SECRET_BYTES, SECRET_NAMES } from '../../state/storage.ts';
import { damagedBackup, type BackupContents } from './backup-file.ts';

/** The tables of a backup that the service's schema does not describe. */
const BACKUP_ONLY = new Set(['backup_secrets']);

/**
 * Checks that a backup can be put in place and started, beyond the file being whole (readBackup
 * ran SQLite's integrity check): its schema is exactly the one its version stands for (the
 * tables, columns, indexes and triggers the migrations up to that version create, no fewer, no more),
 * every secret it holds is whole, and a backup of the current version holds every secret.
 * Throws one sentence naming the first problem; reads the file only.
 *
 * The schema version must be one this code knows (restoreBackup refuses a newer one first).
 */
export async function verifyBackup(file: string, contents: BackupContents): Promise<void> {
  const damaged = (what: string) => damagedBackup(file, what);
  const db = await openSqlite(file, { readonly: true, fileMustExist: true });
  try {
    if (contents.schemaVersion < 0) throw damaged(`its schema version is ${contents.schemaVersion}`);
    const difference = await schemaDifference(db, contents.schemaVersion);
    if (difference !== undefined) throw damaged(`it has schema version ${contents.schemaVersion} but ${difference}`);
  } finally {
    db.close();
  }
  // The service makes every secret at its first start, the one that also brings the schema to this
  // version: a backup of this version without one was not made whole.
  const absent = SECRET_NAMES.filter((name) => !contents.secrets.has(name));
  if (contents.schemaVersion === MIGRATIONS.length && absent.length > 0)
    throw damaged(
      `it lacks the ${absent.join(' and ')} secret${absent.length > 1 ? 's' : ''} that every backup of its version holds`,
    );
  for (const [name, secret] of contents.secrets) {
    if (secret.length !== SECRET_BYTES)
      throw damaged(`its ${name} secret is ${secret.length} bytes, not ${SECRET_BYTES}`);
  }
}

/**
 * How the schema of `db` differs from the one `version` stands for, said in words; undefined when
 * it is that schema. Something missing would fail the service's statements; something more would
 * fail the migration that creates it when the service starts.
 */
async function schemaDifference(db: Db, version: number): Promise<string | undefined> {
  const reference = await openSqlite(':memory:');
  try {
    for (const migration of MIGRATIONS.slice(0, version)) reference.exec(migration);
    const expected = schemaOf(reference);
    const found = schemaOf(db);
    for (const [name, columns] of expected) {
      const present = found.get(name);
      if (present === undefined) return `it has no ${name}`;
      const absent = columns.filter((column) => !present.includes(column));
      if (absent.length > 0) return `its ${name} lacks ${absent.join(', ')}`;
      const more = present.filter((column) => !columns.includes(column));
      if (more.length > 0) return `its ${name} has ${more.join(', ')}, which that version does not`;
    }
    const more = [...found.keys()].filter((name) => !expected.has(name));
    if (more.length > 0) return `it has ${more.join(', ')}, which that version does not`;
    return undefined;
  } finally {
    reference.close();
  }
}

/** Each table (its columns with their declared types), index (its columns) and trigger, by a name that says which it is. */
function schemaOf(db: Db): Map<string, string[]> {
  const objects = db
    .prepare(
      "SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all() as { type: 'table' | 'index' | 'trigger'; name: string }[];
  const schema = new Map<string, string[]>();
  for (const { type, name } of objects) {
    if (BACKUP_ONLY.has(name)) continue;
    const columns =
      type === 'table'
        ? (db.prepare('SELECT name, type FROM pragma_table_info(?)').all(name) as { name: string; type: string }[]).map(
            (column) => `column ${column.name} ${column.type}`.trim(),
          )
        : type === 'index'
          ? (db.prepare('SELECT name FROM pragma_index_info(?)').all(name) as { name: string | null }[]).map(
              (column) => `column ${column.name ?? '(expression)'}`,
            )
          : [];
    schema.set(`${type} ${name}`, columns);
  }
  return schema;
}
