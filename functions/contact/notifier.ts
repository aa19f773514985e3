import { logEvent } from '../log.ts';
import type { MessageStore, StoredMessage } from '../state/message-store.ts';

export interface NotifierOptions {
  webhookUrl: string;
  /** First retry delay; each further retry doubles it, up to an hour. */
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs?: number;
}

const MAX_BACKOFF_MS = 60 * 60 * 1000;
const BATCH = 20;

/**
 * Delivers new messages to the owner's webhook, from the durable inbox and never from the
 * request: a visitor's answer never waits for the webhook, and a message stored before a
 * crash is still delivered after the restart. Delivery is at least once; each post carries
 * the message id (also as Idempotency-Key) so the receiver can drop a repeat.
 */
export class Notifier {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private stopped = false;

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
    void this.deliverDue().finally(() => {
      this.running = false;
      if (this.again) {
        this.again = false;
        this.wake();
      } else {
        this.schedule();
      }
    });
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    const next = this.messages.nextNotificationAt();
    if (next === null || this.stopped) return;
    this.timer = setTimeout(() => this.wake(), Math.max(0, next - Date.now()));
    this.timer.unref();
  }

  private async deliverDue(): Promise<void> {
    for (const message of this.messages.dueForNotification(Date.now(), BATCH)) {
      if (this.stopped) return;
      const error = await this.post(message);
      if (error === null) {
        this.messages.recordDelivery(message.id);
        continue;
      }
      const attempt = message.notifyAttempts + 1;
      const nextAt = attempt >= this.options.maxAttempts ? null : Date.now() + Math.min(MAX_BACKOFF_MS, this.options.retryBaseMs * 2 ** (attempt - 1));
      this.messages.recordFailure(message.id, error, nextAt);
      logEvent('webhook delivery failed', { messageId: message.id, attempt, error, retry: nextAt !== null });
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
