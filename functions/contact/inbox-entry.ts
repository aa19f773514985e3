import type { Channel, Delivery, Folder, StoredMessage } from './message-store.ts';

/** A delivery as the inbox shows it: times as ISO strings. */
interface DeliveryEntry {
  state: Delivery['state'];
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
}

/** A message as `npm run inbox -- --json` prints it, one object per line. */
export interface InboxEntry {
  id: number;
  createdAt: string;
  name: string;
  email: string;
  message: string;
  read: boolean;
  sandbox: boolean;
  folder: Folder;
  /** Why it was judged spam (empty unless it was; kept when the owner moves it back to the inbox). */
  spamReasons: readonly string[];
  /** Per channel the message is delivered to (none for sandbox messages, or when no channel was configured). */
  deliveries: Partial<Record<Channel, DeliveryEntry>>;
}

export function inboxEntry(message: StoredMessage): InboxEntry {
  return {
    id: message.id,
    createdAt: new Date(message.createdAt).toISOString(),
    name: message.name,
    email: message.email,
    message: message.message,
    read: message.readAt !== null,
    sandbox: message.sandbox,
    folder: message.folder,
    spamReasons: message.spamReasons,
    deliveries: Object.fromEntries(
      Object.entries(message.deliveries).map(([channel, delivery]) => [
        channel,
        {
          state: delivery.state,
          attempts: delivery.attempts,
          lastError: delivery.lastError,
          nextAttemptAt: delivery.nextAt === null ? null : new Date(delivery.nextAt).toISOString(),
        },
      ]),
    ),
  };
}
