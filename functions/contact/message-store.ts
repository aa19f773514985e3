import type { KeyRef, RecordedAnswer } from '../state/idempotency-store.ts';

export interface NewMessage {
  sandbox: boolean;
  name: string;
  email: string;
  message: string;
}

/** Whether and how the owner was told about a message. */
export type NotifyState = 'pending' | 'delivered' | 'failed' | 'not_configured' | 'sandbox';

export interface StoredMessage extends NewMessage {
  id: number;
  createdAt: number;
  readAt: number | null;
  notifyState: NotifyState;
  notifyAttempts: number;
  notifyNextAt: number | null;
  notifyLastError: string | null;
}

export interface InboxQuery {
  sandbox: boolean;
  since?: number;
  unreadOnly?: boolean;
  limit?: number;
}

/** A contact submission whose key this request has claimed (IdempotencyStore.claim). */
export interface Submission {
  ref: KeyRef;
  /** The claim's token: the commit happens only while the claim is still this request's. */
  token: string;
  message: NewMessage;
  notifyState: NotifyState;
  answer: RecordedAnswer;
}

/**
 * What storing a submission came to: stored with its answer, or not stored because the key got
 * an answer meanwhile (`earlier`, replayed or refused as reuse by the caller) or because the
 * claim was lost to another request that is still in flight (`earlier` undefined: a 409).
 */
export type SubmissionOutcome = { stored: true; id: number } | { stored: false; earlier?: RecordedAnswer };

/**
 * The durable inbox: contact messages and the state of their owner notification. Times are
 * epoch milliseconds. Each engine (SQLite, PostgreSQL) implements it once.
 */
export interface MessageStore {
  /**
   * Stores the message and its key's answer in one transaction, which also ends the claim, so an
   * acknowledged message survives a crash and is never stored twice, whichever instance retries.
   */
  storeSubmission(submission: Submission, now?: number): Promise<SubmissionOutcome>;
  /** Newest first. */
  list(query: InboxQuery): Promise<StoredMessage[]>;
  markRead(ids: readonly number[], now?: number): Promise<number>;
  /**
   * Takes up to `limit` messages whose notification is due and hides them from every other
   * claimer for `claimMs` (their next attempt moves to now + claimMs), so that each message is
   * posted by one instance at a time. A claimer that dies leaves them due again after `claimMs`.
   */
  claimDue(now: number, limit: number, claimMs: number): Promise<StoredMessage[]>;
  /** The next time a pending notification is due, if any. */
  nextNotificationAt(): Promise<number | null>;
  recordDelivery(id: number): Promise<void>;
  /** A failed post: `nextAt` is the next attempt, or null when there is none left (the state becomes failed). */
  recordFailure(id: number, error: string, nextAt: number | null): Promise<void>;
  /**
   * Deletes sandbox messages created before `before`; returns how many. Sandbox messages are test
   * traffic that anyone may send and nobody is told about, so they are kept only for a while.
   */
  purgeSandbox(before: number): Promise<number>;
}
