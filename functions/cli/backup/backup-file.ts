import { existsSync } from 'node:fs';
import { openSqlite, type Db } from '../../state/sqlite/database.ts';
import { SECRET_NAMES, type SecretName } from '../../state/storage.ts';

/**
 * A backup is one SQLite file: the service's database as it was at one moment, plus a table of
 * its own holding the signing secrets that live beside the database in DATA_DIR. One file is
 * what an owner can keep, copy off the machine and restore, and SQLite reads it back without
 * another format. The table's presence also tells a backup from a bare `portfolio.db`.
 */
const SECRETS_TABLE = 'backup_secrets';

/** What a backup holds, for the summary both commands print. */
export interface BackupContents {
  schemaVersion: number;
  messages: number;
  sandboxMessages: number;
  apiKeys: number;
  /** The secrets found; one the deployment never made (it never signed with it) is absent. */
  secrets: ReadonlyMap<SecretName, Buffer>;
}

/** Adds the secrets table to a database copy, turning it into a backup. */
export function addSecrets(db: Db, secrets: ReadonlyMap<SecretName, Buffer>): void {
  db.exec(`CREATE TABLE ${SECRETS_TABLE} (name TEXT PRIMARY KEY, value BLOB NOT NULL)`);
  const insert = db.prepare(`INSERT INTO ${SECRETS_TABLE} (name, value) VALUES (?, ?)`);
  db.transaction(() => {
    for (const [name, value] of secrets) insert.run(name, value);
  })();
}

/** Turns a restored backup back into a plain service database (the secrets go to their files). */
export function dropSecrets(db: Db): void {
  db.exec(`DROP TABLE ${SECRETS_TABLE}`);
}

/** Reads a backup without changing it; refuses a file that is not one, or not whole. */
export async function readBackup(file: string): Promise<BackupContents> {
  if (!existsSync(file)) throw new Error(`${file} does not exist.`);
  let db: Db;
  try {
    db = await openSqlite(file, { readonly: true, fileMustExist: true });
    db.pragma('schema_version');
  } catch (error) {
    throw new Error(`${file} is not a SQLite database, so not a backup made by npm run backup.`, { cause: error });
  }
  try {
    assertWhole(db, file);
    if (!hasTable(db, SECRETS_TABLE)) {
      throw new Error(
        `${file} is a SQLite database but not a backup made by npm run backup (it has no ${SECRETS_TABLE} table).`,
      );
    }
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    return { schemaVersion, ...countRows(db), secrets: readSecrets(db) };
  } finally {
    db.close();
  }
}

/** A backup that cannot be restored as it is, and why, in one line. */
export function damagedBackup(file: string, what: string): Error {
  return new Error(`${file} is damaged: ${what}. Nothing was changed.`);
}

/** SQLite's own check that every page of the file is sound (a torn copy, a flipped block). */
function assertWhole(db: Db, file: string): void {
  let problems: string[];
  try {
    problems = (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
  } catch (error) {
    throw damagedBackup(file, `SQLite cannot read it (${(error as Error).message})`);
  }
  if (problems.join() !== 'ok')
    throw damagedBackup(file, `SQLite's integrity check found ${problems[0] ?? 'a problem'}`);
}

function countRows(db: Db): Pick<BackupContents, 'messages' | 'sandboxMessages' | 'apiKeys'> {
  const messages = db
    .prepare('SELECT COALESCE(SUM(sandbox = 0), 0) AS live, COALESCE(SUM(sandbox <> 0), 0) AS sandbox FROM messages')
    .get() as { live: number; sandbox: number };
  // Test keys came with schema version 2.
  const keys = hasTable(db, 'api_keys')
    ? (db.prepare('SELECT COUNT(*) AS count FROM api_keys').get() as { count: number })
    : { count: 0 };
  return { messages: messages.live, sandboxMessages: messages.sandbox, apiKeys: keys.count };
}

function hasTable(db: Db, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

function readSecrets(db: Db): Map<SecretName, Buffer> {
  const rows = db.prepare(`SELECT name, value FROM ${SECRETS_TABLE}`).all() as { name: string; value: Buffer }[];
  const known = new Set<string>(SECRET_NAMES);
  return new Map(rows.filter((row) => known.has(row.name)).map((row) => [row.name as SecretName, row.value]));
}

/** One line saying what a backup holds. */
export function describeContents(contents: BackupContents): string {
  const secrets = contents.secrets.size === 0 ? 'none' : [...contents.secrets.keys()].join(', ');
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  return (
    `${plural(contents.messages, 'message')} (and ${contents.sandboxMessages} in the sandbox), ` +
    `${plural(contents.apiKeys, 'test key')}, schema version ${contents.schemaVersion}; secrets: ${secrets}`
  );
}
