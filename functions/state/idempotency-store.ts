import type { Db } from './database.ts';

/** The answer a key's first request got, kept to replay it. */
export interface RecordedAnswer {
  fingerprint: string;
  status: number;
  body: string;
}

export interface KeyRef {
  scope: string;
  sandbox: boolean;
  key: string;
}

/**
 * Idempotency records (draft-ietf-httpapi-idempotency-key-header) in SQLite, so they survive
 * restarts. A record is written only with the outcome, in the same transaction as the work it
 * acknowledges; a request still in flight is tracked in memory (see InFlightKeys), so a body
 * that fails validation costs no write at all.
 */
export class IdempotencyStore {
  private readonly ttlMs: number;
  private readonly statements;

  constructor(db: Db, ttlMs: number) {
    this.ttlMs = ttlMs;
    // Prepared once: preparing a statement costs more than running these small ones.
    this.statements = {
      // Rows in another state are claims an earlier version left behind; they expire like any record.
      find: db.prepare(
        "SELECT fingerprint, status, body FROM idempotency WHERE scope = ? AND sandbox = ? AND key = ? AND state = 'done' AND expires_at > ?",
      ),
      save: db.prepare(
        `INSERT INTO idempotency (scope, sandbox, key, state, fingerprint, status, body, created_at, expires_at) VALUES (?, ?, ?, 'done', ?, ?, ?, ?, ?)
         ON CONFLICT (scope, sandbox, key) DO UPDATE SET state = 'done', fingerprint = excluded.fingerprint, status = excluded.status,
           body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      ),
      purgeExpired: db.prepare('DELETE FROM idempotency WHERE expires_at <= ?'),
    };
  }

  /** The recorded answer for `ref`, if it has one that has not expired. */
  find(ref: KeyRef, now = Date.now()): RecordedAnswer | undefined {
    return this.statements.find.get(ref.scope, Number(ref.sandbox), ref.key, now) as RecordedAnswer | undefined;
  }

  /** Records the answer; call inside the transaction that does the acknowledged work. */
  save(ref: KeyRef, answer: RecordedAnswer, now = Date.now()): void {
    this.statements.save.run(
      ref.scope,
      Number(ref.sandbox),
      ref.key,
      answer.fingerprint,
      answer.status,
      answer.body,
      now,
      now + this.ttlMs,
    );
  }

  /** Drops expired records. */
  purge(now = Date.now()): number {
    return this.statements.purgeExpired.run(now).changes;
  }
}
