import type { KeyRef, RecordedAnswer } from './idempotency-store.ts';

/** Where a message is kept: the inbox, or the spam folder, which is shown apart and never notified. */
export type Folder = 'inbox' | 'spam';

export interface NewMessage {
  sandbox: boolean;
  name: string;
  email: string;
  message: string;
  /** The inbox unless the message was judged spam (functions/contact/spam-score.ts). */
  folder?: Folder;
  /** Why it was judged spam, one reason each. */
  spamReasons?: readonly string[];
}

/** The ways the owner is told about a new message, each delivered on its own (the outbox). */
export type Channel = 'webhook' | 'email';

/** Where one message's delivery to one channel stands; `failed` is final until the owner re-queues it. */
export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  state: DeliveryState;
  attempts: number;
  /** The next attempt (epoch ms) while pending; null once delivered or failed. */
  nextAt: number | null;
  lastError: string | null;
}

/** A stored message without its deliveries: what a channel sends. */
export interface MessageRecord extends NewMessage {
  id: number;
  folder: Folder;
  /** Empty unless the message was judged spam; kept when the owner moves it back to the inbox. */
  spamReasons: readonly string[];
  createdAt: number;
  readAt: number | null;
}

export interface StoredMessage extends MessageRecord {
  /**
   * One entry per channel the message is to be delivered to: the channels configured when it was
   * stored, plus any the owner re-queued it for. Sandbox messages have none.
   */
  deliveries: Partial<Record<Channel, Delivery>>;
}

/** A delivery claimed for one attempt: the message and how many attempts came before. */
export interface DueDelivery {
  message: MessageRecord;
  attempts: number;
}

export interface InboxQuery {
  sandbox: boolean;
  /** The inbox unless said otherwise. */
  folder?: Folder;
  since?: number;
  unreadOnly?: boolean;
  limit?: number;
}

/**
 * Who sent a sandbox message and the most storage each of them may keep. A sandbox message counts
 * `bytes` against its client (IP, or /64 for IPv6) and, when sent with a test key, against that key;
 * storing it deletes the oldest sandbox messages of either that would keep more than `maxBytes`.
 */
export interface SandboxShare {
  client: string;
  key: string | null;
  bytes: number;
  maxBytes: number;
}

/** A contact submission whose key this request has claimed (IdempotencyStore.claim). */
export interface Submission {
  ref: KeyRef;
  /** The claim's token: the commit happens only while the claim is still this request's. */
  token: string;
  message: NewMessage;
  /** The channels to deliver it to: those configured now (none for a sandbox message or spam). */
  channels: readonly Channel[];
  answer: RecordedAnswer;
  /** Set for a sandbox message: whose storage it counts against (live messages are never deleted). */
  sandboxShare?: SandboxShare;
}

/**
 * What storing a submission came to: stored with its answer, or not stored because the key got
 * an answer meanwhile (`earlier`, replayed or refused as reuse by the caller) or because the
 * claim was lost to another request that is still in flight (`earlier` undefined: a 409).
 */
export type SubmissionOutcome = { stored: true; id: number } | { stored: false; earlier?: RecordedAnswer };

/** A delivery the owner re-queued, and where it stood before (null: the message had none to that channel). */
export interface Requeued {
  id: number;
  channel: Channel;
  was: 'failed' | null;
}

/**
 * The durable inbox and its outbox: contact messages, and per message and channel the state of
 * its delivery to the owner. Times are epoch milliseconds. Each engine (SQLite, PostgreSQL)
 * implements it once.
 */
export interface MessageStore {
  /**
   * Stores the message, its deliveries (one pending per channel in the submission) and its key's
   * answer in one transaction, which also ends the claim, so an acknowledged message survives a
   * crash, is never stored twice whichever instance retries, and is never stored without them.
   * A sandbox message's share (Submission.sandboxShare) is enforced in the same transaction, so the
   * bound holds across instances.
   */
  storeSubmission(submission: Submission, now?: number): Promise<SubmissionOutcome>;
  /** Newest first. */
  list(query: InboxQuery): Promise<StoredMessage[]>;
  markRead(ids: readonly number[], now?: number): Promise<number>;
  /**
   * Takes up to `limit` deliveries to `channel` that are due and hides them from every other
   * claimer for `claimMs` (their next attempt moves to now + claimMs), so that each is attempted
   * by one instance at a time. A claimer that dies leaves them due again after `claimMs`.
   */
  claimDue(channel: Channel, now: number, limit: number, claimMs: number): Promise<DueDelivery[]>;
  /** The next time a pending delivery to `channel` is due, if any. */
  nextDeliveryAt(channel: Channel): Promise<number | null>;
  recordDelivery(id: number, channel: Channel): Promise<void>;
  /** A failed attempt: `nextAt` is the next one, or null when there is none left (the state becomes failed). */
  recordFailure(id: number, channel: Channel, error: string, nextAt: number | null): Promise<void>;
  /**
   * Queues the live messages `ids` of the inbox again for `channels`, due at `now`: a missing
   * delivery is created, a failed one starts over (its attempts back to 0); pending and delivered
   * ones are left alone. Spam is never queued. Returns what was queued.
   */
  requeue(ids: readonly number[], channels: readonly Channel[], now?: number): Promise<Requeued[]>;
  /**
   * Moves the live messages `ids` of the spam folder to the inbox and queues them for `channels`
   * (as requeue does), in one transaction; returns the ids moved, each once, in ascending order.
   */
  moveToInbox(ids: readonly number[], channels: readonly Channel[], now?: number): Promise<number[]>;
  /**
   * Deletes sandbox messages created before `before`; returns how many. Sandbox messages are test
   * traffic that anyone may send and nobody is told about, so they are kept only for a while. Live
   * messages, spam included, are never deleted.
   */
  purgeSandbox(before: number): Promise<number>;
  /**
   * How many live messages that came in at `since` or later are in the spam folder now: what each
   * notification tells the owner, so that spam never hides a real message in silence.
   */
  countSpam(since: number): Promise<number>;
}
