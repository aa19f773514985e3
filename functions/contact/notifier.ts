import { logError, logEvent } from '../log.ts';
import type { MessageStore, StoredMessage } from './message-store.ts';

export interface NotifierOptions {
  webhookUrl: string;
  /** First retry delay; each further retry doubles it, up to an hour. */
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs?: number;
}

const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Retries of the notifier's own reads and writes stop doubling here: the disk may come back any minute. */
const MAX_STORAGE_BACKOFF_MS = 60 * 1000;
/**
 * With nothing pending, the inbox is looked at again after this long: another instance sharing it
 * may have stored a message and died before posting it.
 */
const IDLE_POLL_MS = 60_000;
/** Most messages posted in one round; the rest wait for the next round, right after. */
const BATCH = 20;
/**
 * How long a claimed message stays hidden from the other instances' notifiers, beyond the post's
 * own timeout: one post at a time is claimed, so a claim outlives its post unless the instance died.
 */
const CLAIM_MARGIN_MS = 30_000;

/** The delay before retry number `attempt` (from 1): the base, doubled per attempt, up to `maxMs`. */
function backoff(baseMs: number, attempt: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** (attempt - 1));
}

/** What one post came to, to be written to the message's row. */
type Outcome = { delivered: true } | { delivered: false; error: string; nextAt: number | null };

/**
 * Delivers new messages to the owner's webhook, from the durable inbox and never from the
 * request: a visitor's answer never waits for the webhook, and a message stored before a
 * crash is still delivered after the restart. Delivery is at least once; each post carries
 * the message id (also as Idempotency-Key) so the receiver can drop a repeat.
 *
 * Several instances may share the inbox (PostgreSQL): each message is claimed before its post
 * (MessageStore.claimDue), so one instance at a time posts it, and another takes it over once
 * the claim runs out if the first died.
 *
 * The inbox itself can fail (a full disk, a read-only DATA_DIR, another writer holding the
 * database past busy_timeout, PostgreSQL down). Such a failure is logged and the round is tried again later,
 * with backoff; it never escapes as a rejected promise. A post whose result could not be
 * written is kept in memory and written later, and is not posted again by this process; only
 * a restart before the write lands posts it once more.
 */
export class Notifier {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private stopped = false;
  /** Results posted but not yet written, by message id. */
  private readonly unwritten = new Map<number, Outcome>();
  /** Rounds in a row in which the inbox could not be read or written; sets the backoff. */
  private storageFailures = 0;

  constructor(
    private readonly messages: MessageStore,
    private readonly options: NotifierOptions,
  ) {}

  /** Looks for due deliveries now (after a new message) and then whenever the next one is due. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = true;
    void this.round().then(() => {
      this.running = false;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Stops for good; a result still unwritten gets one last try, else its message is posted again after a restart. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    try {
      await this.writeOutcomes();
    } catch {
      // Still pending in the inbox: delivered again after the restart, which at-least-once allows.
    }
  }

  /** One pass over due messages, then the timer for the next; it never rejects. */
  private async round(): Promise<void> {
    try {
      await this.writeOutcomes();
      await this.deliverDue();
      this.storageFailures = 0;
    } catch (error) {
      this.storageFailed(error);
    }
    await this.schedule();
  }

  private async schedule(): Promise<void> {
    if (this.stopped || this.again) return;
    let delay: number;
    if (this.storageFailures > 0) {
      delay = this.storageBackoffMs();
    } else {
      let next: number | null;
      try {
        next = await this.messages.nextNotificationAt();
      } catch (error) {
        this.storageFailed(error);
        return this.schedule();
      }
      if (this.stopped) return;
      delay = next === null ? IDLE_POLL_MS : Math.max(0, next - Date.now());
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), delay);
    this.timer.unref();
  }

  private storageBackoffMs(): number {
    return backoff(this.options.retryBaseMs, this.storageFailures, MAX_STORAGE_BACKOFF_MS);
  }

  private storageFailed(error: unknown): void {
    this.storageFailures++;
    logError('notifier', error, {
      message: 'webhook bookkeeping failed; retrying',
      unwritten: [...this.unwritten.keys()],
      retryInMs: this.storageBackoffMs(),
    });
  }

  /** Posts what is due, writing each result before the next post; throws when the inbox fails. */
  private async deliverDue(): Promise<void> {
    const claimMs = (this.options.timeoutMs ?? 10_000) + CLAIM_MARGIN_MS;
    for (let posted = 0; posted < BATCH && !this.stopped; posted++) {
      const [message] = await this.messages.claimDue(Date.now(), 1, claimMs);
      if (message === undefined || this.stopped) return;
      const error = await this.post(message);
      // Stopped during the post: the database may be closed; the message stays pending.
      if (this.stopped) return;
      if (error === null) {
        this.unwritten.set(message.id, { delivered: true });
      } else {
        const attempt = message.notifyAttempts + 1;
        const nextAt =
          attempt >= this.options.maxAttempts
            ? null
            : Date.now() + backoff(this.options.retryBaseMs, attempt, MAX_BACKOFF_MS);
        this.unwritten.set(message.id, { delivered: false, error, nextAt });
        logEvent('webhook delivery failed', { messageId: message.id, attempt, error, retry: nextAt !== null });
      }
      await this.writeOutcomes();
    }
  }

  /** Writes the results still held in memory; throws at the first that fails, keeping it and the rest. */
  private async writeOutcomes(): Promise<void> {
    for (const [id, outcome] of this.unwritten) {
      if (outcome.delivered) await this.messages.recordDelivery(id);
      else await this.messages.recordFailure(id, outcome.error, outcome.nextAt);
      this.unwritten.delete(id);
    }
  }

  /** Posts one message; null on a 2xx, otherwise why it failed. */
  private async post(message: StoredMessage): Promise<string | null> {
    try {
      const response = await fetch(this.options.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `message-${message.id}` },
        body: JSON.stringify({
          type: 'contact.message',
          id: message.id,
          name: message.name,
          email: message.email,
          message: message.message,
          createdAt: new Date(message.createdAt).toISOString(),
        }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      await response.arrayBuffer();
      return response.ok ? null : `HTTP ${response.status}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
}
