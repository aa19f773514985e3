import type { Db } from './database.ts';

/** What a key already stands for when a request claims it. */
export type Claim =
  | { kind: 'claimed' }
  | { kind: 'in_progress' }
  | { kind: 'completed'; fingerprint: string; status: number; body: string };

export interface KeyRef {
  scope: string;
  sandbox: boolean;
  key: string;
}

/**
 * Idempotency records (draft-ietf-httpapi-idempotency-key-header) in SQLite, so they survive
 * restarts and are shared by every process on the same DATA_DIR. A request first claims its key
 * (`in_progress`); the outcome is saved in the same transaction as the work it acknowledges.
 */
export class IdempotencyStore {
  private readonly db: Db;
  private readonly ttlMs: number;
  private readonly statements;

  constructor(db: Db, ttlMs: number) {
    this.db = db;
    this.ttlMs = ttlMs;
    // Prepared once: preparing a statement costs more than running these small ones.
    this.statements = {
      find: db.prepare('SELECT state, fingerprint, status, body, expires_at FROM idempotency WHERE scope = ? AND sandbox = ? AND key = ?'),
      claim: db.prepare(
        `INSERT INTO idempotency (scope, sandbox, key, state, created_at, expires_at) VALUES (?, ?, ?, 'in_progress', ?, ?)
         ON CONFLICT (scope, sandbox, key) DO UPDATE SET state = 'in_progress', fingerprint = NULL, status = NULL,
           body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      ),
      release: db.prepare("DELETE FROM idempotency WHERE scope = ? AND sandbox = ? AND key = ? AND state = 'in_progress'"),
      complete: db.prepare("UPDATE idempotency SET state = 'done', fingerprint = ?, status = ?, body = ? WHERE scope = ? AND sandbox = ? AND key = ?"),
      purgeExpired: db.prepare('DELETE FROM idempotency WHERE expires_at <= ?'),
      purgeClaims: db.prepare("DELETE FROM idempotency WHERE state = 'in_progress'"),
    };
  }

  /** Claims `ref` unless it is taken; an expired record counts as absent. */
  claim(ref: KeyRef, now = Date.now()): Claim {
    return this.db.transaction((): Claim => {
      const row = this.statements.find.get(ref.scope, Number(ref.sandbox), ref.key) as
        | { state: string; fingerprint: string | null; status: number | null; body: string | null; expires_at: number }
        | undefined;
      if (row !== undefined && row.expires_at > now) {
        if (row.state === 'in_progress') return { kind: 'in_progress' };
        return { kind: 'completed', fingerprint: row.fingerprint ?? '', status: row.status ?? 200, body: row.body ?? '' };
      }
      this.statements.claim.run(ref.scope, Number(ref.sandbox), ref.key, now, now + this.ttlMs);
      return { kind: 'claimed' };
    })();
  }

  /** Gives up a claim whose request ended without an outcome worth replaying. */
  release(ref: KeyRef): void {
    this.statements.release.run(ref.scope, Number(ref.sandbox), ref.key);
  }

  /** Saves the outcome; call inside the transaction that does the acknowledged work. */
  complete(ref: KeyRef, fingerprint: string, status: number, body: string): void {
    this.statements.complete.run(fingerprint, status, body, ref.scope, Number(ref.sandbox), ref.key);
  }

  /** Drops expired records, and at start the claims a previous process left unfinished. */
  purge(now = Date.now(), { abandonedClaims = false } = {}): number {
    const expired = this.statements.purgeExpired.run(now).changes;
    const abandoned = abandonedClaims ? this.statements.purgeClaims.run().changes : 0;
    return expired + abandoned;
  }
}
