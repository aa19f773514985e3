import { parseArgs } from 'node:util';
import { loadConfig } from '../config/env.ts';
import { inboxEntry } from '../contact/inbox-entry.ts';
import type { StoredMessage } from '../contact/message-store.ts';
import { openStorage } from '../state/open-storage.ts';

const USAGE = `Usage: npm run inbox -- [options]

Shows contact messages, newest first, from the storage the service uses
(DATABASE_URL when set, else DATA_DIR).

  --json            one JSON object per message, per line
  --since <when>    only messages since an ISO date (2026-11-01) or a duration ago (30m, 12h, 7d)
  --unread          only messages not yet marked read
  --mark-read       mark the messages shown as read
  --limit <n>       show at most n messages
  --sandbox         show the sandbox inbox instead of the real one
  --help            this text`;

const DURATION = /^(\d+)([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `--since`: an ISO date or a duration back from now. */
export function parseSince(text: string, now = Date.now()): number {
  const duration = DURATION.exec(text);
  if (duration) return now - Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS];
  const time = Date.parse(text);
  if (Number.isNaN(time))
    throw new Error(`--since: "${text}" is neither a date (2026-11-01) nor a duration (30m, 12h, 7d)`);
  return time;
}

function describeDelivery(message: StoredMessage): string {
  switch (message.notifyState) {
    case 'delivered':
      return 'webhook: delivered';
    case 'pending':
      return `webhook: pending (${message.notifyAttempts} attempts${message.notifyLastError ? `, last error: ${message.notifyLastError}` : ''})`;
    case 'failed':
      return `webhook: FAILED after ${message.notifyAttempts} attempts (${message.notifyLastError ?? 'unknown error'})`;
    case 'not_configured':
      return 'webhook: not configured';
    case 'sandbox':
      return 'sandbox: never notified';
  }
}

/** A visitor wrote this text: control characters could drive the owner's terminal, so they are shown as "?". */
function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');
}

function formatText(message: StoredMessage): string {
  const when = new Date(message.createdAt).toISOString().replace('T', ' ').slice(0, 16);
  const flags = [message.readAt === null ? 'unread' : 'read', describeDelivery(message)].join(' · ');
  const lines = printable(message.message.replace(/\r\n?/g, '\n')).split('\n');
  const body = lines.map((line) => `    ${line}`).join('\n');
  return `#${message.id}  ${when} UTC  ${printable(message.name)} <${printable(message.email)}>\n    [${flags}]\n${body}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      since: { type: 'string' },
      unread: { type: 'boolean', default: false },
      'mark-read': { type: 'boolean', default: false },
      limit: { type: 'string' },
      sandbox: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw new Error('--limit must be a positive integer');

  const storage = await openStorage(loadConfig());
  try {
    const store = storage.messages;
    const messages = await store.list({
      sandbox: values.sandbox,
      ...(values.since === undefined ? {} : { since: parseSince(values.since) }),
      unreadOnly: values.unread,
      ...(limit === undefined ? {} : { limit }),
    });
    if (values.json) {
      for (const message of messages) process.stdout.write(`${JSON.stringify(inboxEntry(message))}\n`);
    } else if (messages.length === 0) {
      process.stdout.write('No messages.\n');
    } else {
      process.stdout.write(messages.map(formatText).join('\n'));
    }
    if (values['mark-read']) {
      const marked = await store.markRead(messages.map((message) => message.id));
      process.stderr.write(`Marked ${marked} message${marked === 1 ? '' : 's'} as read.\n`);
    }
  } finally {
    await storage.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    process.exit(1);
  });
}
