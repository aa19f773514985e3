import type { Claim, IdempotencyStore, KeyRef, RecordedAnswer } from '../../contact/idempotency-store.ts';
import { withStorage } from './sqlite-errors.ts';
import type { Db } from './database.ts';
import type { InFlightKeys } from './in-flight-keys.ts';

/**
 * Idempotency records in SQLite. A record is written only with the outcome, in the same
 * transaction as the work it acknowledges (SqliteMessageStore.storeSubmission); a claim in flight
 * is held in memory (InFlightKeys), so a request that fails before its work writes nothing.
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly statements;

  constructor(
    db: Db,
    private readonly inFlight: InFlightKeys,
  ) {
    // Prepared once: preparing a statement costs more than running these small ones.
    this.statements = {
      // Rows in another state are claims an earlier version left behind; they expire like any record.
      find: db.prepare(
        "SELECT fingerprint, status, body FROM idempotency WHERE scope = ? AND sandbox = ? AND key = ? AND state = 'done' AND expires_at > ?",
      ),
      purgeExpired: db.prepare('DELETE FROM idempotency WHERE expires_at <= ?'),
    };
  }

  /** Claims end with this process, so they need no lease. */
  async claim(ref: KeyRef, _leaseMs: number, now = Date.now()): Promise<Claim> {
    const answer = this.find(ref, now);
    if (answer !== undefined) return { kind: 'recorded', answer };
    const token = this.inFlight.enter(ref);
    return token === null ? { kind: 'in_flight' } : { kind: 'claimed', token };
  }

  async release(ref: KeyRef, token: string): Promise<void> {
    this.inFlight.leave(ref, token);
  }

  async purge(now = Date.now()): Promise<number> {
    return withStorage(() => this.statements.purgeExpired.run(now).changes);
  }

  /** The recorded answer for `ref`, if it has one that has not expired. */
  find(ref: KeyRef, now = Date.now()): RecordedAnswer | undefined {
    return withStorage(
      () => this.statements.find.get(ref.scope, Number(ref.sandbox), ref.key, now) as RecordedAnswer | undefined,
    );
  }
}
