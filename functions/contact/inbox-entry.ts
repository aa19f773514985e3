import type { StoredMessage } from './message-store.ts';

/** A message as `npm run inbox -- --json` prints it, one object per line. */
export interface InboxEntry {
  id: number;
  createdAt: string;
  name: string;
  email: string;
  message: string;
  read: boolean;
  sandbox: boolean;
  delivery: { state: string; attempts: number; lastError: string | null };
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
    delivery: { state: message.notifyState, attempts: message.notifyAttempts, lastError: message.notifyLastError },
  };
}
