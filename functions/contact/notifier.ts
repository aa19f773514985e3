import { logError, logWarning } from '../log/log.ts';
import type { Channel, MessageRecord, MessageStore } from './message-store.ts';

/** What each notification tells the owner besides its message. */
export interface OwnerNotice {
  /** Live messages kept as spam in the last SPAM_NOTICE_MS: spam is never notified, so this says it exists. */
  spamLastDay: number;
  /** The command that shows the spam folder on this installation. */
  spamCommand: string;
}

/** The span of OwnerNotice.spamLastDay. */
const SPAM_NOTICE_MS = 24 * 60 * 60 * 1000;

/** The line of a notification that tells the owner about recent spam, or null when there was none. */
export function spamNoticeLine({ spamLastDay, spamCommand }: OwnerNotice): string | null {
  if (spamLastDay === 0) return null;
  const messages = spamLastDay === 1 ? '1 message' : `${spamLastDay} messages`;
  return `${messages} went to spam in the last 24 hours: ${spamCommand}`;
}

/** One way of telling the owner (a webhook post, an email): the notifier decides when, the sender how. */
export interface ChannelSender {
  readonly channel: Channel;
  /** The longest one send may take; a claimed delivery stays hidden from other instances a while longer. */
  readonly timeoutMs: number;
  /** Delivers one message; null once the receiver accepted it, otherwise why it did not (a status, an error). */
  send(message: MessageRecord, notice: OwnerNotice): Promise<string | null>;
  close?(): void;
}

export interface NotifierOptions {
  /** First retry delay; each further retry doubles it, up to an hour. */
  retryBaseMs: number;
  maxAttempts: number;
  /** Named in each notification's spam line (OwnerNotice.spamCommand). */
  spamCommand: string;
}

const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Retries of the notifier's own reads and writes stop doubling here: the disk may come back any minute. */
const MAX_STORAGE_BACKOFF_MS = 60 * 1000;
/**
 * With nothing pending, the inbox is looked at again after this long: another instance sharing it
 * may have stored a message and died before sending it.
 */
const IDLE_POLL_MS = 60_000;
/** Most messages sent in one round; the rest wait for the next round, right after. */
const BATCH = 20;
/**
 * How long a claimed message stays hidden from the other instances' notifiers, beyond the send's
 * own timeout: one send at a time is claimed, so a claim outlives its send unless the instance died.
 */
const CLAIM_MARGIN_MS = 30_000;

/** The delay before retry number `attempt` (from 1): the base, doubled per attempt, up to `maxMs`. */
function backoff(baseMs: number, attempt: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** (attempt - 1));
}

/** What one attempt came to, to be written to the delivery's row. */
type Outcome = { delivered: true } | { delivered: false; error: string; nextAt: number | null };

/**
 * Delivers new messages to the owner through one channel (one Notifier per channel), from the
 * durable outbox and never from the request: a visitor's answer never waits for the webhook or
 * the mail server, and a message stored before a crash is still delivered after the restart.
 * Delivery is at least once; each send carries the message id (the webhook's Idempotency-Key,
 * the mail's Message-ID) so the receiver can recognise a repeat.
 *
 * Several instances may share the outbox (PostgreSQL): each delivery is claimed before its send
 * (MessageStore.claimDue), so one instance at a time sends it, and another takes it over once
 * the claim runs out if the first died.
 *
 * The inbox itself can fail (a full disk, a read-only DATA_DIR, another writer holding the
 * database past busy_timeout, PostgreSQL down). Such a failure is logged and the round is tried again later,
 * with backoff; it never escapes as a rejected promise. A send whose result could not be
 * written is kept in memory and written later, and is not sent again by this process; only
 * a restart before the write lands sends it once more.
 */
export class Notifier {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private stopped = false;
  /** Results sent but not yet written, by message id. */
  private readonly unwritten = new Map<number, Outcome>();
  /** Rounds in a row in which the inbox could not be read or written; sets the backoff. */
  private storageFailures = 0;

  constructor(
    private readonly messages: MessageStore,
    private readonly sender: ChannelSender,
    private readonly options: NotifierOptions,
  ) {}

  get channel(): Channel {
    return this.sender.channel;
  }

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

  /**
   * One bounded pass without any timer, for a host that keeps nothing running between requests
   * (a function instance, kept alive for this by `waitUntil` or a scheduled run): writes results
   * still held, then sends up to a batch of due deliveries. Resolves with how many sends it tried;
   * it never rejects (a failure is logged, and the next pass tries again).
   */
  async deliverOnce(): Promise<number> {
    try {
      await this.writeOutcomes();
      return await this.deliverDue();
    } catch (error) {
      this.storageFailed(error);
      return 0;
    }
  }

  /** Stops for good; a result still unwritten gets one last try, else its message is sent again after a restart. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    try {
      await this.writeOutcomes();
    } catch {
      // Still pending in the outbox: delivered again after the restart, which at-least-once allows.
    }
    this.sender.close?.();
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
        next = await this.messages.nextDeliveryAt(this.sender.channel);
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
      message: `${this.sender.channel} bookkeeping failed; retrying`,
      unwritten: [...this.unwritten.keys()],
      retryInMs: this.storageBackoffMs(),
    });
  }

  /** Sends what is due, writing each result before the next send; resolves with the sends tried, throws when the outbox fails. */
  private async deliverDue(): Promise<number> {
    const { channel } = this.sender;
    const claimMs = this.sender.timeoutMs + CLAIM_MARGIN_MS;
    let sent = 0;
    for (; sent < BATCH && !this.stopped; sent++) {
      const [due] = await this.messages.claimDue(channel, Date.now(), 1, claimMs);
      if (due === undefined || this.stopped) return sent;
      const { message } = due;
      // Counted for each message: a round may go on while more messages come in.
      const notice = {
        spamLastDay: await this.messages.countSpam(Date.now() - SPAM_NOTICE_MS),
        spamCommand: this.options.spamCommand,
      };
      const error = await this.sender.send(message, notice);
      // Stopped during the send: the database may be closed; the delivery stays pending.
      if (this.stopped) return sent + 1;
      if (error === null) {
        this.unwritten.set(message.id, { delivered: true });
      } else {
        const attempt = due.attempts + 1;
        const nextAt =
          attempt >= this.options.maxAttempts
            ? null
            : Date.now() + backoff(this.options.retryBaseMs, attempt, MAX_BACKOFF_MS);
        this.unwritten.set(message.id, { delivered: false, error, nextAt });
        logWarning(`${channel} delivery failed`, {
          channel,
          messageId: message.id,
          attempt,
          error,
          nextAttemptAt: nextAt === null ? null : new Date(nextAt).toISOString(),
          ...(nextAt === null
            ? { gaveUp: `no attempts left of ${this.options.maxAttempts}: npm run inbox -- --redeliver` }
            : {}),
        });
      }
      await this.writeOutcomes();
    }
    return sent;
  }

  /** Writes the results still held in memory; throws at the first that fails, keeping it and the rest. */
  private async writeOutcomes(): Promise<void> {
    const { channel } = this.sender;
    for (const [id, outcome] of this.unwritten) {
      if (outcome.delivered) await this.messages.recordDelivery(id, channel);
      else await this.messages.recordFailure(id, channel, outcome.error, outcome.nextAt);
      this.unwritten.delete(id);
    }
  }
}
