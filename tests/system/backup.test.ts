import Database from 'better-sqlite3';
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaTooNew } from '../../functions/state/schema-too-new.ts';
import { MIGRATIONS } from '../../functions/state/sqlite/migrations.ts';
import { postContact, readInbox, VALID } from '../support/contact.ts';
import { npmRun, type Outcome } from '../support/npm-run.ts';
import { freshDataDir, startServer, type RunningServer } from '../support/server.ts';

/** Enough quota for a few seconds of steady posting from one address. */
const QUOTAS = { READ_RATE_LIMIT: '1000000/60', CONTACT_RATE_LIMIT: '1000000/600' };
const LOOPS = 4;

const backup = (dataDir: string, ...args: string[]) => npmRun('backup', { DATA_DIR: dataDir }, ...args);
const restore = (dataDir: string, ...args: string[]) => npmRun('restore', { DATA_DIR: dataDir }, ...args);
const modeOf = (file: string) => statSync(file).mode & 0o777;
const backupFile = () => path.join(freshDataDir(), 'portfolio-backup.db');

/**
 * Contact messages posted without pause by several loops at once, each with a text of its own.
 * `acknowledged` lists, in the order the answers came, the texts the service answered 200 to: a
 * prefix of it taken at some moment is exactly what had been acknowledged by then.
 */
function contactTraffic(baseUrl: string) {
  const sent: string[] = [];
  const acknowledged: string[] = [];
  const refused: number[] = [];
  let running = true;
  const loop = async (index: number) => {
    for (let n = 0; running; n++) {
      const text = `Backup traffic ${index}.${n} ${randomUUID()}`;
      sent.push(text);
      const { status } = await postContact(baseUrl, { ...VALID, message: text });
      if (status === 200) acknowledged.push(text);
      else refused.push(status);
    }
  };
  const loops = Promise.all(Array.from({ length: LOOPS }, (_, index) => loop(index)));
  return {
    sent,
    acknowledged,
    refused,
    async untilAcknowledged(count: number) {
      while (acknowledged.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    async stop() {
      running = false;
      await loops;
    },
  };
}

async function firstCursor(baseUrl: string): Promise<string> {
  const page = (await (await fetch(`${baseUrl}/api/v1/projects?limit=2`)).json()) as {
    pagination: { nextCursor: string };
  };
  return page.pagination.nextCursor;
}

const nextPageStatus = async (baseUrl: string, cursor: string) =>
  (await fetch(`${baseUrl}/api/v1/projects?limit=2&cursor=${encodeURIComponent(cursor)}`)).status;

/*
 * Why a backup command at all: the database is in WAL mode, so recent commits live in
 * portfolio.db-wal until a checkpoint folds them into portfolio.db (SQLite does so every ~1000
 * pages of WAL). Copying portfolio.db alone under the same traffic as below, measured here: after
 * 16 and 52 acknowledged messages the copy held no table at all (everything was still in the WAL);
 * after 301, 27 were missing. Under steady traffic the checkpoints hide the loss of older
 * messages, so the traffic test alone would not catch a plain copy; the rules below (a backup of a
 * deployment with one message) do.
 */
describe('npm run backup while contact traffic flows, then npm run restore', () => {
  let server: RunningServer | undefined;
  let restored: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    await restored?.stop();
  });

  it('keeps every message acknowledged before the backup started, once, and the secrets that verify cursors', async () => {
    server = await startServer(QUOTAS);
    const cursor = await firstCursor(server.baseUrl);
    const traffic = contactTraffic(server.baseUrl);
    const file = backupFile();
    let before: string[];
    let during: number;
    let made: Outcome;
    try {
      await traffic.untilAcknowledged(50);
      before = traffic.acknowledged.slice();
      made = await backup(server.dataDir, file);
      during = traffic.acknowledged.length - before.length;
    } finally {
      await traffic.stop();
    }
    expect(made.code, made.stderr).toBe(0);
    expect(traffic.refused).toEqual([]);
    // The copy was taken while the service kept writing.
    expect(during).toBeGreaterThan(0);
    expect(modeOf(file)).toBe(0o600);
    const copied = /(\d+) messages \(and 0 in the sandbox\)/.exec(made.stdout);
    expect(copied, made.stdout).not.toBeNull();
    expect(made.stdout).toMatch(/secrets: cursor, token, form/);

    const dataDir = freshDataDir();
    const put = await restore(dataDir, file);
    expect(put.code, put.stderr).toBe(0);
    expect(put.stdout).toContain(copied![0]);
    for (const name of ['portfolio.db', 'cursor.key', 'token.key', 'form.key']) {
      expect(modeOf(path.join(dataDir, name)), name).toBe(0o600);
      if (name.endsWith('.key'))
        expect(readFileSync(path.join(dataDir, name))).toEqual(readFileSync(path.join(server.dataDir, name)));
    }

    const inbox = (await readInbox(dataDir)).map((entry) => entry.message);
    expect(inbox).toHaveLength(Number(copied![1]));
    expect(new Set(inbox).size).toBe(inbox.length);
    const inRestored = new Set(inbox);
    expect(before.filter((text) => !inRestored.has(text))).toEqual([]);
    // Nothing else: what is there beyond them was posted (and committed) while the backup ran.
    const sent = new Set(traffic.sent);
    expect(inbox.filter((text) => !sent.has(text))).toEqual([]);

    restored = await startServer(QUOTAS, dataDir);
    expect(await nextPageStatus(restored.baseUrl, cursor)).toBe(200);
  });
});

describe('backup and restore rules', () => {
  let server: RunningServer;
  let file: string;
  beforeAll(async () => {
    server = await startServer(QUOTAS);
    expect((await postContact(server.baseUrl, { ...VALID, message: 'Before the backup' })).status).toBe(200);
    file = backupFile();
    const made = await backup(server.dataDir, file);
    expect(made.code, made.stderr).toBe(0);
  });
  afterAll(() => server.stop());

  it('never overwrites a file without --force, and replaces it with --force', async () => {
    const kept = backupFile();
    writeFileSync(kept, 'something the owner keeps');
    const refused = await backup(server.dataDir, kept);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/exists already: choose another name, or pass --force/);
    expect(readFileSync(kept, 'utf8')).toBe('something the owner keeps');

    const forced = await backup(server.dataDir, '--force', kept);
    expect(forced.code, forced.stderr).toBe(0);
    expect(modeOf(kept)).toBe(0o600);
    expect(readdirSync(path.dirname(kept))).toEqual(['portfolio-backup.db']);
  });

  it('restores over a deployment only with --force, and never under a running service', async () => {
    expect((await postContact(server.baseUrl, { ...VALID, message: 'After the backup' })).status).toBe(200);
    const plain = await restore(server.dataDir, file);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/already holds a deployment \(portfolio\.db, cursor\.key, token\.key, form\.key\)/);
    expect(plain.stderr).toMatch(/Stop the service/);
    const running = await restore(server.dataDir, '--force', file);
    expect(running.code).toBe(1);
    expect(running.stderr).toMatch(/open in another process: the service is running on it\. Stop the service first/);

    await server.stop();
    const forced = await restore(server.dataDir, '--force', file);
    expect(forced.code, forced.stderr).toBe(0);
    server = await startServer(QUOTAS, server.dataDir);
    expect((await readInbox(server.dataDir)).map((entry) => entry.message)).toEqual(['Before the backup']);
  });

  it('refuses a backup from a newer version of the service, writing nothing', async () => {
    const newer = backupFile();
    copyFileSync(file, newer);
    const db = new Database(newer);
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    const dataDir = freshDataDir();
    const refused = await restore(dataDir, newer);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(new SchemaTooNew(MIGRATIONS.length + 1, MIGRATIONS.length, newer).message);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('restores a backup from an older version, which the service migrates when it starts', async () => {
    const older = backupFile();
    const db = new Database(older);
    db.exec(MIGRATIONS[0]!);
    db.pragma('user_version = 1');
    db.prepare(
      `INSERT INTO messages (sandbox, name, email, message, created_at, notify_state) VALUES (0, ?, ?, ?, ?, 'not_configured')`,
    ).run(VALID.name, VALID.email, 'Kept since version 1', Date.now());
    // The backup's own table, as npm run backup writes it.
    db.exec('CREATE TABLE backup_secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL)');
    db.prepare("INSERT INTO backup_secrets VALUES ('cursor', ?)").run(randomBytes(32));
    db.close();
    const dataDir = freshDataDir();
    const put = await restore(dataDir, older);
    expect(put.code, put.stderr).toBe(0);
    expect(put.stdout).toMatch(/1 message \(and 0 in the sandbox\), 0 test keys, schema version 1; secrets: cursor/);
    const upgraded = await startServer(QUOTAS, dataDir);
    await upgraded.stop();
    expect((await readInbox(dataDir)).map((entry) => entry.message)).toEqual(['Kept since version 1']);
    const migrated = new Database(path.join(dataDir, 'portfolio.db'), { readonly: true });
    expect(migrated.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    migrated.close();
  });

  it('refuses a damaged backup (integrity, schema, secrets) in one line, leaving the deployment as it was', async () => {
    // A deployment to restore over, stopped: each refusal must leave it byte for byte.
    const dataDir = freshDataDir();
    expect((await restore(dataDir, file)).code).toBe(0);
    const snapshot = () => new Map(readdirSync(dataDir).map((name) => [name, readFileSync(path.join(dataDir, name))]));
    const before = snapshot();
    const damaged = (change: (db: Database.Database) => void) => {
      const copy = backupFile();
      copyFileSync(file, copy);
      const db = new Database(copy);
      change(db);
      db.close();
      return copy;
    };
    /** The same backup with the root page of an index overwritten: the tables read, the file is not whole. */
    const torn = backupFile();
    copyFileSync(file, torn);
    const probe = new Database(torn, { readonly: true });
    const pageSize = probe.pragma('page_size', { simple: true }) as number;
    const { rootpage } = probe
      .prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'messages_by_folder'")
      .get() as {
      rootpage: number;
    };
    probe.close();
    const bytes = readFileSync(torn);
    bytes.fill(0xee, (rootpage - 1) * pageSize, rootpage * pageSize);
    writeFileSync(torn, bytes);

    for (const [backup, reason] of [
      [torn, /is damaged: SQLite (cannot read it|'s integrity check found)/],
      [
        damaged((db) => db.exec('DROP TABLE deliveries')),
        /is damaged: it has schema version \d+ but it has no table deliveries\./,
      ],
      [
        damaged((db) => db.exec('DROP INDEX messages_by_folder; ALTER TABLE messages DROP COLUMN folder')),
        /is damaged: it has schema version \d+ but its table messages lacks column folder TEXT/,
      ],
      [
        damaged((db) => db.pragma('user_version = 5')),
        /is damaged: it has schema version 5 but its table messages has column folder TEXT, .*which that version does not\./,
      ],
      [
        damaged((db) => db.prepare("UPDATE backup_secrets SET value = ? WHERE name = 'token'").run(Buffer.alloc(5))),
        /is damaged: its token secret is 5 bytes, not 32\./,
      ],
      [
        damaged((db) => db.exec("DELETE FROM backup_secrets WHERE name = 'form'")),
        /is damaged: it lacks the form secret that every backup of its version holds\./,
      ],
    ] as const) {
      const refused = await restore(dataDir, '--force', backup);
      expect(refused.code, refused.stdout).toBe(1);
      expect(refused.stderr.split('\n')[0]).toMatch(reason);
      expect(refused.stderr.split('\n')[0]).toMatch(/Nothing was changed\.$/);
      expect(snapshot()).toEqual(before);
    }
    // And the deployment still starts on its own data.
    const still = await startServer(QUOTAS, dataDir);
    await still.stop();
    expect((await readInbox(dataDir)).map((entry) => entry.message)).toEqual(['Before the backup']);
  });

  it('refuses a file that is not a backup: a bare copy of portfolio.db', async () => {
    const bare = backupFile();
    copyFileSync(path.join(server.dataDir, 'portfolio.db'), bare);
    const refused = await restore(freshDataDir(), bare);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not a backup made by npm run backup/);
  });

  it('refuses on PostgreSQL (DATABASE_URL), naming pg_dump and pg_restore', async () => {
    const env = { DATA_DIR: freshDataDir(), DATABASE_URL: 'postgres://portfolio@127.0.0.1:9/portfolio' };
    const made = await npmRun('backup', env, backupFile());
    expect(made.code).toBe(1);
    expect(made.stderr).toMatch(
      /DATABASE_URL is set.*\(umask 077 && pg_dump -Fc "\$DATABASE_URL" -f portfolio\.dump\)/,
    );
    const put = await npmRun('restore', env, file);
    expect(put.code).toBe(1);
    expect(put.stderr).toMatch(/DATABASE_URL is set.*new database.*pg_restore --no-owner -d "\$DATABASE_URL"/);
  });

  it('--help prints the usage and exits 0', async () => {
    for (const script of ['backup', 'restore']) {
      const help = await npmRun(script, {}, '--help');
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: npm run ${script} -- \\[options\\] <file>`));
      expect(help.stdout).toMatch(/--force/);
    }
  });
});
