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
 * What claiming an Idempotency-Key came to: this request may do the work (`claimed`, with the
 * token that fences its commit), the key already has an answer to replay (`recorded`), or another
 * request holds it right now, on this instance or another (`in_flight`, answered 409).
 */
export type Claim =
  { kind: 'claimed'; token: string } | { kind: 'recorded'; answer: RecordedAnswer } | { kind: 'in_flight' };

/**
 * Idempotency records (draft-ietf-httpapi-idempotency-key-header), durable, so they survive
 * restarts and every instance sharing the storage sees them.
 *
 * A request first claims its key for `leaseMs`. The claim ends with the work's commit (see
 * MessageStore.storeSubmission, which records the answer in the same transaction) or with
 * release() when the request fails before doing any work. A claim whose holder died (kill -9,
 * a lost machine) is free again once its lease has passed; nothing else frees it, so a restart
 * of one instance never breaks a request in flight on another. On SQLite, where one process owns
 * the database, claims live in that process: they end with it, and need no lease.
 */
export interface IdempotencyStore {
  claim(ref: KeyRef, leaseMs: number, now?: number): Promise<Claim>;
  /** Gives a claim back without an answer; a no-op when the claim is no longer `token`'s. */
  release(ref: KeyRef, token: string): Promise<void>;
  /** Drops expired records; returns how many. */
  purge(now?: number): Promise<number>;
}
