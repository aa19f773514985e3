import type { Config } from '../config/env.ts';
import { inboxEntry } from '../contact/inbox-entry.ts';
import type { Channel, Delivery, MessageStore, StoredMessage } from '../contact/message-store.ts';
import { openStorage } from '../state/open-storage.ts';
import { parseInboxOptions, type InboxOptions } from './inbox-options.ts';
import { loadServiceConfig, requireDatabase } from './service-config.ts';

const USAGE = `Usage: npm run inbox -- [options] [ids]

Shows contact messages, newest first, with where each one's delivery to the owner stands
(webhook, email), from the storage the service uses (DATABASE_URL when set, else DATA_DIR).
Give it the service's environment file so it reads what the service reads: on a server set up
as docs/deploy-vps.md shows, npm run inbox -- --env-file /etc/portfolio/portfolio.env (as the
service's user). Where DATA_DIR holds no database, it says so and stops; it never creates one.
Messages judged spam are kept apart, never notified and never deleted: see --spam.
Options work with or without "--"; an option with a value needs "--" or "=" (--since=1h).

  --env-file <file> read the service's settings from its environment file (KEY="value" lines,
                    as systemd's EnvironmentFile= reads them; its values win over the environment's)
  --json            one JSON object per message, per line
  --since <when>    only messages since an ISO date (2026-11-01) or a duration ago (30m, 12h, 7d)
  --unread          only messages not yet marked read
  --mark-read       mark the messages shown as read
  --limit <n>       show at most n messages
  --sandbox         show the sandbox inbox instead of the real one
  --spam            show the spam folder instead of the inbox: messages judged spam (many links,
                    a filled honeypot, a form sent too fast...), with the reasons; never notified
  --not-spam        move the messages given by id from the spam folder to the inbox and queue
                    them for every channel configured now, as --redeliver does (--not-spam 12)
  --redeliver       queue the messages shown again for every channel configured now
                    (NOTIFY_WEBHOOK_URL, SMTP_URL): a missing delivery is created, a failed one
                    starts over; delivered and pending ones are left alone. The running server
                    sends them within a minute (at once on its next message or restart)
  ids               only these messages (12 15 or #12)
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

function describeDelivery(channel: Channel, delivery: Delivery): string {
  switch (delivery.state) {
    case 'delivered':
      return `${channel}: delivered`;
    case 'pending': {
      const next = delivery.nextAt === null ? '' : `, next ${new Date(delivery.nextAt).toISOString().slice(0, 19)}Z`;
      return `${channel}: pending (${delivery.attempts} attempts${delivery.lastError ? `, last error: ${delivery.lastError}` : ''}${next})`;
    }
    case 'failed':
      return `${channel}: FAILED after ${delivery.attempts} attempts (${delivery.lastError ?? 'unknown error'})`;
  }
}

function describeDeliveries(message: StoredMessage): string[] {
  if (message.folder === 'spam') return [`spam: never notified (${message.spamReasons.join(', ')})`];
  if (message.sandbox) return ['sandbox: never notified'];
  const deliveries = Object.entries(message.deliveries) as [Channel, Delivery][];
  if (deliveries.length === 0) return ['not notified (no channel configured when it came)'];
  return deliveries.map(([channel, delivery]) => describeDelivery(channel, delivery));
}

/** A visitor wrote this text: control characters could drive the owner's terminal, so they are shown as "?". */
function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');
}

function formatText(message: StoredMessage): string {
  const when = new Date(message.createdAt).toISOString().replace('T', ' ').slice(0, 16);
  const flags = [message.readAt === null ? 'unread' : 'read', ...describeDeliveries(message)].join(' · ');
  const lines = printable(message.message.replace(/\r\n?/g, '\n')).split('\n');
  const body = lines.map((line) => `    ${line}`).join('\n');
  return `#${message.id}  ${when} UTC  ${printable(message.name)} <${printable(message.email)}>\n    [${flags}]\n${body}\n`;
}

/** The channels configured now, in the service's order. */
function configuredChannels({ notify }: Config): Channel[] {
  return [
    ...(notify.webhook === null ? [] : ['webhook' as const]),
    ...(notify.email === null ? [] : ['email' as const]),
  ];
}

async function selectMessages(store: MessageStore, options: InboxOptions): Promise<StoredMessage[]> {
  const byId = options.ids.length > 0;
  const messages = await store.list({
    sandbox: options.sandbox,
    folder: options.spam || options.notSpam ? 'spam' : 'inbox',
    ...(options.since === undefined ? {} : { since: parseSince(options.since) }),
    unreadOnly: options.unread,
    ...(options.limit === undefined || byId ? {} : { limit: options.limit }),
  });
  if (!byId) return messages;
  const chosen = messages.filter((message) => options.ids.includes(message.id));
  return options.limit === undefined ? chosen : chosen.slice(0, options.limit);
}

async function redeliver(store: MessageStore, messages: readonly StoredMessage[], config: Config): Promise<void> {
  const channels = configuredChannels(config);
  if (channels.length === 0)
    throw new Error(
      '--redeliver: no channel is configured; set NOTIFY_WEBHOOK_URL or SMTP_URL (with NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM)',
    );
  const queued = await store.requeue(
    messages.map((message) => message.id),
    channels,
  );
  for (const { id, channel, was } of queued)
    process.stderr.write(`Queued #${id} for ${channel} (${was === null ? 'never sent there' : 'had failed'}).\n`);
  process.stderr.write(
    queued.length === 0
      ? `Nothing to queue: every message selected is delivered or pending on ${channels.join(' and ')}.\n`
      : `Queued ${queued.length} deliver${queued.length === 1 ? 'y' : 'ies'}; the running server sends them within a minute.\n`,
  );
}

/** --not-spam: the selected spam to the inbox, queued for the channels configured now; returns the ids moved. */
async function moveToInbox(store: MessageStore, messages: readonly StoredMessage[], config: Config): Promise<number[]> {
  const channels = configuredChannels(config);
  const moved = await store.moveToInbox(
    messages.map((message) => message.id),
    channels,
  );
  const queued =
    channels.length === 0 ? 'not queued: no channel is configured' : `queued for ${channels.join(' and ')}`;
  for (const id of moved) process.stderr.write(`Moved #${id} to the inbox (${queued}).\n`);
  if (moved.length === 0) process.stderr.write('Nothing to move: no message given is in the spam folder.\n');
  return moved;
}

async function main(): Promise<void> {
  const options = parseInboxOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const service = loadServiceConfig(options.envFile);
  requireDatabase(service, 'inbox');
  const { config } = service;
  const storage = await openStorage(config);
  try {
    const store = storage.messages;
    let messages = await selectMessages(store, options);
    if (options.notSpam) {
      const moved = await moveToInbox(store, messages, config);
      messages = (await selectMessages(store, { ...options, spam: false, notSpam: false })).filter((message) =>
        moved.includes(message.id),
      );
    }
    if (options.redeliver) {
      await redeliver(store, messages, config);
      messages = (await selectMessages(store, options)).filter((message) =>
        messages.some((shown) => shown.id === message.id),
      );
    }
    if (options.json) {
      for (const message of messages) process.stdout.write(`${JSON.stringify(inboxEntry(message))}\n`);
    } else if (messages.length === 0) {
      process.stdout.write('No messages.\n');
    } else {
      process.stdout.write(messages.map(formatText).join('\n'));
    }
    if (options.markRead) {
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
