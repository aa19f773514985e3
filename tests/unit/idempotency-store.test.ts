import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../functions/contact/contact-service.ts';
import { openDatabase } from '../../functions/state/database.ts';
import { IdempotencyStore } from '../../functions/state/idempotency-store.ts';
import { MIGRATIONS } from '../../functions/state/migrations.ts';

function store(ttlMs = 1000) {
  const db = openDatabase(mkdtempSync(path.join(tmpdir(), 'idem-')));
  return { db, store: new IdempotencyStore(db, ttlMs) };
}

const ref = { scope: 'contact', sandbox: false, key: 'k1' };

describe('IdempotencyStore', () => {
  const answer = { fingerprint: 'fp', status: 200, body: '{"success":true}' };

  it('finds nothing for a new key, then the recorded answer', () => {
    const { store: s } = store();
    expect(s.find(ref, 0)).toBeUndefined();
    s.save(ref, answer, 0);
    expect(s.find(ref, 1)).toEqual(answer);
  });

  it('keeps sandbox and production keys apart', () => {
    const { store: s } = store();
    s.save(ref, answer, 0);
    expect(s.find({ ...ref, sandbox: true }, 0)).toBeUndefined();
  });

  it('forgets an expired record, and records the key again', () => {
    const { store: s } = store(1000);
    s.save(ref, answer, 0);
    expect(s.find(ref, 999)).toEqual(answer);
    expect(s.find(ref, 1000)).toBeUndefined();
    s.save(ref, { ...answer, fingerprint: 'other' }, 1000);
    expect(s.find(ref, 1001)?.fingerprint).toBe('other');
  });

  it('ignores a claim an earlier version left unfinished, and purges expired records', () => {
    const { db, store: s } = store(1000);
    db.prepare(
      "INSERT INTO idempotency (scope, sandbox, key, state, created_at, expires_at) VALUES ('contact', 0, 'stuck', 'in_progress', 0, 1000)",
    ).run();
    expect(s.find({ ...ref, key: 'stuck' }, 10)).toBeUndefined();
    s.save({ ...ref, key: 'old' }, answer, 0);
    s.save({ ...ref, key: 'new' }, answer, 5000);
    expect(s.purge(2000)).toBe(2);
    expect((db.prepare('SELECT key FROM idempotency').all() as { key: string }[]).map((row) => row.key)).toEqual([
      'new',
    ]);
  });

  it('migrates a new database to the current schema version', () => {
    const { db } = store();
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  });
});

describe('fingerprintOf', () => {
  it('ignores key order and whitespace but not values', () => {
    expect(fingerprintOf(JSON.parse('{"a": 1, "b": [1, {"c": 2, "d": 3}]}'))).toBe(
      fingerprintOf({ b: [1, { d: 3, c: 2 }], a: 1 }),
    );
    expect(fingerprintOf({ a: 1 })).not.toBe(fingerprintOf({ a: 2 }));
    expect(fingerprintOf([1, 2])).not.toBe(fingerprintOf([2, 1]));
  });
});
