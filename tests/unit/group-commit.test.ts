import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, type Db } from '../../functions/state/sqlite/database.ts';
import { GroupCommit } from '../../functions/state/sqlite/group-commit.ts';

/** A WAL database on disk, as the service opens it, and a second connection that sees only what is committed. */
async function databases(): Promise<{ db: Db; reader: Db }> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'group-commit-')), 'test.db');
  const db = await openSqlite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.exec(`CREATE TABLE parents (id INTEGER PRIMARY KEY);
    CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE,
      parent INTEGER REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)`);
  return { db, reader: await openSqlite(file, { readonly: true }) };
}

const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

async function setUp() {
  const { db, reader } = await databases();
  opened.push(db, reader);
  const insert = db.prepare('INSERT INTO items (label, parent) VALUES (?, ?)');
  const labels = () =>
    (reader.prepare('SELECT label FROM items ORDER BY id').all() as { label: string }[]).map((row) => row.label);
  return { db, commits: new GroupCommit(db), insert, labels };
}

describe('GroupCommit', () => {
  it('commits the writes of one turn together, and settles none before the commit', async () => {
    const { commits, insert, labels } = await setUp();
    let seenBeforeCommit: string[] | undefined;
    const writes = ['a', 'b', 'c'].map((label) =>
      commits.run(() => {
        insert.run(label, null);
        // Another connection sees nothing of the group until it commits, not even earlier writes.
        if (label === 'c') seenBeforeCommit = labels();
        return label.toUpperCase();
      }),
    );
    expect(await Promise.all(writes)).toEqual(['A', 'B', 'C']);
    expect(seenBeforeCommit).toEqual([]);
    expect(labels()).toEqual(['a', 'b', 'c']);
  });

  it('rolls back and rejects only the write that throws; the rest of the group is stored', async () => {
    const { commits, insert, labels } = await setUp();
    const first = commits.run(() => insert.run('a', null));
    const failing = commits.run(() => {
      insert.run('half done', null);
      insert.run('a', null); // violates UNIQUE: this write's savepoint is rolled back, 'half done' with it
    });
    const third = commits.run(() => insert.run('c', null));
    await expect(first).resolves.toBeDefined();
    await expect(failing).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    await expect(third).resolves.toBeDefined();
    expect(labels()).toEqual(['a', 'c']);
  });

  it('rejects every write of the group when the commit fails, and stores none of them', async () => {
    const { commits, insert, labels, db } = await setUp();
    // A deferred foreign key is checked at COMMIT: the one bad row makes the whole commit fail.
    const writes = [
      commits.run(() => insert.run('a', null)),
      commits.run(() => insert.run('orphan', 42)),
      commits.run(() => insert.run('c', null)),
    ];
    for (const write of writes) await expect(write).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    expect(labels()).toEqual([]);
    expect(db.inTransaction).toBe(false);
    // The next group is not affected.
    await commits.run(() => insert.run('later', null));
    expect(labels()).toEqual(['later']);
  });

  it('stores what is queued when flushed before the database closes', async () => {
    const { commits, insert, labels } = await setUp();
    const write = commits.run(() => insert.run('queued', null));
    commits.flush();
    await write;
    expect(labels()).toEqual(['queued']);
  });
});
