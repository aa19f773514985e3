import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { MessageRecord } from './message-store.ts';
import { spamNoticeLine, type ChannelSender, type OwnerNotice } from './notifier.ts';
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature.ts';

/** The JSON a webhook receives (documented field by field in content/docs/developers/webhooks.md). */
interface WebhookPayload {
  type: 'contact.message';
  id: number;
  name: string;
  email: string;
  message: string;
  createdAt: string;
  /** Live messages kept as spam in the last 24 hours (never posted themselves: `npm run inbox -- --spam`). */
  spamLastDay: number;
  /** One line for chat tools: Slack's incoming webhooks (and Discord's Slack-compatible ones) show it as the post. */
  text: string;
}

/** Longest excerpt of the message in `text`; the whole message is in `message`. */
const TEXT_EXCERPT = 200;
/**
 * The most of a receiver's answer that is read: enough for a status word or a short error
 * (Slack answers `invalid_payload`), never a body that would fill the process's memory.
 */
const WEBHOOK_ANSWER_LIMIT = 4096;
/** How much of the answer a failed attempt's error quotes. */
const ERROR_EXCERPT = 200;

/**
 * A visitor's text as chat tools show it, never as a mention or a link: `&`, `<` and `>` become
 * entities, Slack's escaping rules for message text (its "Formatting text for app surfaces"
 * guide), which turns `<!channel>`, `<!here>` and `<@U123>` into plain text; `@everyone`,
 * `@here` and `@channel`, which Discord (and Slack's legacy parsing) read as mentions, get a
 * zero-width space after the `@`.
 */
function chatText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(everyone|here|channel)\b/gi, '@\u200b$1');
}

function webhookPayload(message: MessageRecord, notice: OwnerNotice): WebhookPayload {
  const oneLine = message.message.replace(/\s+/g, ' ').trim();
  const excerpt = oneLine.length > TEXT_EXCERPT ? `${oneLine.slice(0, TEXT_EXCERPT - 1)}…` : oneLine;
  return {
    type: 'contact.message',
    id: message.id,
    name: message.name,
    email: message.email,
    message: message.message,
    createdAt: new Date(message.createdAt).toISOString(),
    spamLastDay: notice.spamLastDay,
    text: [
      chatText(`New message #${message.id} from ${message.name} <${message.email}>: ${excerpt}`),
      spamNoticeLine(notice),
    ]
      .filter((line) => line !== null)
      .join('\n'),
  };
}

/** What one post came to: the status and the first bytes of the answer, or the error that ended it. */
type PostResult = { status: number; location: string | undefined; answer: string } | { error: string };

/**
 * Posts each message as JSON to the owner's URL; signed when there is a secret. One connection
 * per post, closed once the answer's status and at most WEBHOOK_ANSWER_LIMIT bytes of its body
 * are in, or when `timeoutMs` passes, whichever comes first. A redirect is not followed: the
 * signed body goes to the configured URL or nowhere.
 */
export class WebhookSender implements ChannelSender {
  readonly channel = 'webhook';

  constructor(
    private readonly url: string,
    private readonly secret: string | null,
    readonly timeoutMs = 10_000,
  ) {}

  async send(message: MessageRecord, notice: OwnerNotice): Promise<string | null> {
    const body = JSON.stringify(webhookPayload(message, notice));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'idempotency-key': `message-${message.id}`,
    };
    // Signed at each attempt: a retry carries a fresh timestamp, so it passes a receiver's tolerance window.
    if (this.secret !== null)
      headers[SIGNATURE_HEADER] = signatureHeader(this.secret, body, Math.floor(Date.now() / 1000));
    const result = await this.post(body, headers);
    if ('error' in result) return result.error;
    if (result.status >= 200 && result.status < 300) return null;
    if (result.status >= 300 && result.status < 400)
      return `HTTP ${result.status}: redirects are not followed, the signed body goes only to NOTIFY_WEBHOOK_URL${result.location === undefined ? '' : ` (Location: ${result.location.slice(0, ERROR_EXCERPT)})`}`;
    const answer = result.answer.replace(/\s+/g, ' ').trim().slice(0, ERROR_EXCERPT);
    return answer === '' ? `HTTP ${result.status}` : `HTTP ${result.status}: ${answer}`;
  }

  private post(body: string, headers: Record<string, string>): Promise<PostResult> {
    const url = new URL(this.url);
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (result: PostResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        outgoing.destroy();
        resolve(result);
      };
      // agent: false, a connection of its own, so closing it early never touches another request's.
      const outgoing = request(url, { method: 'POST', headers, agent: false }, (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const done = () =>
          settle({
            status: response.statusCode ?? 0,
            location: response.headers.location,
            answer: Buffer.concat(chunks).toString('utf8'),
          });
        response.on('data', (chunk: Buffer) => {
          if (settled) return;
          chunks.push(chunk.subarray(0, WEBHOOK_ANSWER_LIMIT - read));
          read += chunk.length;
          if (read >= WEBHOOK_ANSWER_LIMIT) done();
        });
        response.on('end', done);
        response.on('error', done);
      });
      const deadline = setTimeout(
        () => settle({ error: `no complete answer within ${this.timeoutMs / 1000} s: connection closed` }),
        this.timeoutMs,
      );
      outgoing.on('error', (error) => settle({ error: error.message }));
      outgoing.end(body);
    });
  }
}
