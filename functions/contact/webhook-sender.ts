import type { MessageRecord } from './message-store.ts';
import type { ChannelSender } from './notifier.ts';
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature.ts';

/** The JSON a webhook receives (documented field by field in content/docs/developers/webhooks.md). */
interface WebhookPayload {
  type: 'contact.message';
  id: number;
  name: string;
  email: string;
  message: string;
  createdAt: string;
  /** One line for chat tools: Slack's incoming webhooks (and Discord's Slack-compatible ones) show it as the post. */
  text: string;
}

/** Longest excerpt of the message in `text`; the whole message is in `message`. */
const TEXT_EXCERPT = 200;

function webhookPayload(message: MessageRecord): WebhookPayload {
  const oneLine = message.message.replace(/\s+/g, ' ').trim();
  const excerpt = oneLine.length > TEXT_EXCERPT ? `${oneLine.slice(0, TEXT_EXCERPT - 1)}…` : oneLine;
  return {
    type: 'contact.message',
    id: message.id,
    name: message.name,
    email: message.email,
    message: message.message,
    createdAt: new Date(message.createdAt).toISOString(),
    text: `New message #${message.id} from ${message.name} <${message.email}>: ${excerpt}`,
  };
}

/** Posts each message as JSON to the owner's URL; signed when there is a secret. */
export class WebhookSender implements ChannelSender {
  readonly channel = 'webhook';

  constructor(
    private readonly url: string,
    private readonly secret: string | null,
    readonly timeoutMs = 10_000,
  ) {}

  async send(message: MessageRecord): Promise<string | null> {
    const body = JSON.stringify(webhookPayload(message));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'idempotency-key': `message-${message.id}`,
    };
    // Signed at each attempt: a retry carries a fresh timestamp, so it passes a receiver's tolerance window.
    if (this.secret !== null)
      headers[SIGNATURE_HEADER] = signatureHeader(this.secret, body, Math.floor(Date.now() / 1000));
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.arrayBuffer();
      return response.ok ? null : `HTTP ${response.status}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
}
