import type {
  Channel,
  Delivery,
  DeliveryState,
  Folder,
  MessageRecord,
  StoredMessage,
  Submission,
} from '../contact/message-store.ts';
import type { ColumnName } from './tables.ts';

/** The columns of a message, as either engine returns them (SQLite's booleans are 0 and 1). */
export interface MessageRow {
  id: number;
  sandbox: number | boolean;
  name: string;
  email: string;
  message: string;
  created_at: number;
  read_at: number | null;
  folder: Folder;
  /** A JSON array of reasons, or null for a message never judged spam. */
  spam_reasons: string | null;
}

/** The columns of MessageRow, as both engines select them. */
export const MESSAGE_COLUMNS = (
  [
    'id',
    'sandbox',
    'name',
    'email',
    'message',
    'created_at',
    'read_at',
    'folder',
    'spam_reasons',
  ] satisfies (keyof MessageRow & ColumnName<'messages'>)[]
).join(', ');

/** The columns both engines write for a new message, in the order of newMessageValues. */
export const NEW_MESSAGE_COLUMNS = (
  [
    'sandbox',
    'name',
    'email',
    'message',
    'created_at',
    'folder',
    'spam_reasons',
    'sandbox_client',
    'sandbox_key',
    'size_bytes',
  ] satisfies ColumnName<'messages'>[]
).join(', ');

/**
 * The values of NEW_MESSAGE_COLUMNS for a submission stored at `now`; `sandbox` is a boolean,
 * which SQLite stores as 0 or 1. spam_reasons is null for a message with nothing to say.
 */
export function newMessageValues({ message, sandboxShare: share }: Submission, now: number) {
  const { spamReasons } = message;
  return [
    message.sandbox,
    message.name,
    message.email,
    message.message,
    now,
    message.folder ?? 'inbox',
    spamReasons === undefined || spamReasons.length === 0 ? null : JSON.stringify(spamReasons),
    share?.client ?? null,
    share?.key ?? null,
    share?.bytes ?? 0,
  ] as const;
}

/**
 * The sandbox shares a message counts against (Submission.sandboxShare): its client's and, with a
 * test key, its key's. Each is a row of sandbox_shares (`owner`, its total kept by triggers) and
 * the messages column that says whose a message is.
 */
export function sandboxShares(share: { client: string; key: string | null }): SandboxShareRef[] {
  const shares: SandboxShareRef[] = [
    { owner: `client:${share.client}`, column: 'sandbox_client', value: share.client },
  ];
  if (share.key !== null) shares.push({ owner: `key:${share.key}`, column: 'sandbox_key', value: share.key });
  return shares;
}

export interface SandboxShareRef {
  owner: string;
  column: 'sandbox_client' | 'sandbox_key';
  value: string;
}

/** A row of the outbox (table deliveries). */
export interface DeliveryRow {
  message_id: number;
  channel: Channel;
  state: DeliveryState;
  attempts: number;
  next_at: number | null;
  last_error: string | null;
}

/** Longest last error kept: a receiver's whole error page is not worth storing. */
export const MAX_ERROR_LENGTH = 500;

export function toMessageRecord(row: MessageRow): MessageRecord {
  return {
    id: row.id,
    sandbox: row.sandbox === true || row.sandbox === 1,
    name: row.name,
    email: row.email,
    message: row.message,
    createdAt: row.created_at,
    readAt: row.read_at,
    folder: row.folder,
    spamReasons: row.spam_reasons === null ? [] : (JSON.parse(row.spam_reasons) as string[]),
  };
}

/** The messages with their deliveries, in the order of `messages`. */
export function withDeliveries(messages: readonly MessageRow[], deliveries: readonly DeliveryRow[]): StoredMessage[] {
  const byMessage = new Map<number, StoredMessage['deliveries']>();
  for (const row of deliveries) {
    const delivery: Delivery = {
      state: row.state,
      attempts: row.attempts,
      nextAt: row.next_at,
      lastError: row.last_error,
    };
    byMessage.set(row.message_id, { ...byMessage.get(row.message_id), [row.channel]: delivery });
  }
  return messages.map((row) => ({ ...toMessageRecord(row), deliveries: byMessage.get(row.id) ?? {} }));
}
