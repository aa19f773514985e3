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
  it('claims a new key, reports it in progress, then completed with its answer', () => {
    const { store: s } = store();
    expect(s.claim(ref, 0)).toEqual({ kind: 'claimed' });
    expect(s.claim(ref, 1)).toEqual({ kind: 'in_progress' });
    s.complete(ref, 'fp', 200, '{"success":true}');
    expect(s.claim(ref, 2)).toEqual({ kind: 'completed', fingerprint: 'fp', status: 200, body: '{"success":true}' });
  });

  it('keeps sandbox and production keys apart', () => {
    const { store: s } = store();
    s.claim(ref, 0);
    expect(s.claim({ ...ref, sandbox: true }, 0)).toEqual({ kind: 'claimed' });
  });

  it('forgets a released claim and an expired record', () => {
    const { store: s } = store(1000);
    s.claim(ref, 0);
    s.release(ref);
    expect(s.claim(ref, 10)).toEqual({ kind: 'claimed' });
    s.complete(ref, 'fp', 200, 'x');
    expect(s.claim(ref, 1009).kind).toBe('completed');
    expect(s.claim(ref, 1010)).toEqual({ kind: 'claimed' });
  });

  it('purges expired records, and claims left by a dead process', () => {
    const { db, store: s } = store(1000);
    s.claim({ ...ref, key: 'old' }, 0);
    s.complete({ ...ref, key: 'old' }, 'fp', 200, 'x');
    s.claim({ ...ref, key: 'stuck' }, 5000);
    expect(s.purge(2000)).toBe(1);
    expect(s.purge(2000, { abandonedClaims: true })).toBe(1);
    expect((db.prepare('SELECT COUNT(*) AS n FROM idempotency').get() as { n: number }).n).toBe(0);
  });

  it('migrates a new database to the current schema version', () => {
    const { db } = store();
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  });
});

describe('fingerprintOf', () => {
  it('ignores key order and whitespace but not values', () => {
    expect(fingerprintOf(JSON.parse('{"a": 1, "b": [1, {"c": 2, "d": 3}]}'))).toBe(fingerprintOf({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(fingerprintOf({ a: 1 })).not.toBe(fingerprintOf({ a: 2 }));
    expect(fingerprintOf([1, 2])).not.toBe(fingerprintOf([2, 1]));
  });
});
