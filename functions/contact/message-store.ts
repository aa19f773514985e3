import type { Db } from '../state/database.ts';

export interface NewMessage {
  sandbox: boolean;
  name: string;
  email: string;
  message: string;
}

/** Whether and how the owner was told about a message. */
export type NotifyState = 'pending' | 'delivered' | 'failed' | 'not_configured' | 'sandbox';

export interface StoredMessage extends NewMessage {
  id: number;
  createdAt: number;
  readAt: number | null;
  notifyState: NotifyState;
  notifyAttempts: number;
  notifyNextAt: number | null;
  notifyLastError: string | null;
}

interface MessageRow {
  id: number;
  sandbox: number;
  name: string;
  email: string;
  message: string;
  created_at: number;
  read_at: number | null;
  notify_state: NotifyState;
  notify_attempts: number;
  notify_next_at: number | null;
  notify_last_error: string | null;
}

function fromRow(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    sandbox: row.sandbox === 1,
    name: row.name,
    email: row.email,
    message: row.message,
    createdAt: row.created_at,
    readAt: row.read_at,
    notifyState: row.notify_state,
    notifyAttempts: row.notify_attempts,
    notifyNextAt: row.notify_next_at,
    notifyLastError: row.notify_last_error,
  };
}

export interface InboxQuery {
  sandbox: boolean;
  since?: number;
  unreadOnly?: boolean;
  limit?: number;
}

/** The durable inbox: contact messages and the state of their owner notification. */
export class MessageStore {
  private readonly db: Db;
  /** The statements of the request path and of the notifier (which runs after every stored message), prepared once. */
  private readonly statements;

  constructor(db: Db) {
    this.db = db;
    this.statements = {
      insert: db.prepare(
        `INSERT INTO messages (sandbox, name, email, message, created_at, notify_state, notify_next_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      due: db.prepare(
        "SELECT * FROM messages WHERE notify_state = 'pending' AND notify_next_at <= ? ORDER BY id LIMIT ?",
      ),
      nextDue: db.prepare("SELECT MIN(notify_next_at) AS next FROM messages WHERE notify_state = 'pending'"),
      delivered: db.prepare(
        "UPDATE messages SET notify_state = 'delivered', notify_attempts = notify_attempts + 1, notify_next_at = NULL, notify_last_error = NULL WHERE id = ?",
      ),
      purgeSandbox: db.prepare('DELETE FROM messages WHERE sandbox = 1 AND created_at < ?'),
      failed: db.prepare(
        `UPDATE messages SET notify_attempts = notify_attempts + 1, notify_last_error = ?, notify_next_at = ?,
           notify_state = CASE WHEN ? IS NULL THEN 'failed' ELSE 'pending' END WHERE id = ?`,
      ),
    };
  }

  insert(message: NewMessage, notifyState: NotifyState, now = Date.now()): number {
    const result = this.statements.insert.run(
      Number(message.sandbox),
      message.name,
      message.email,
      message.message,
      now,
      notifyState,
      notifyState === 'pending' ? now : null,
    );
    return Number(result.lastInsertRowid);
  }

  /** Newest first. */
  list(query: InboxQuery): StoredMessage[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM messages WHERE sandbox = ? AND created_at >= ? ${query.unreadOnly ? 'AND read_at IS NULL' : ''}
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .all(Number(query.sandbox), query.since ?? 0, query.limit ?? -1) as MessageRow[];
    return rows.map(fromRow);
  }

  markRead(ids: readonly number[], now = Date.now()): number {
    const mark = this.db.prepare('UPDATE messages SET read_at = ? WHERE id = ? AND read_at IS NULL');
    return this.db.transaction(() => ids.reduce((changed, id) => changed + mark.run(now, id).changes, 0))();
  }

  /** Messages whose notification is due. */
  dueForNotification(now: number, limit: number): StoredMessage[] {
    return (this.statements.due.all(now, limit) as MessageRow[]).map(fromRow);
  }

  /** The next time a pending notification is due, if any. */
  nextNotificationAt(): number | null {
    return (this.statements.nextDue.get() as { next: number | null }).next;
  }

  /**
   * Deletes sandbox messages created before `before`; returns how many. Sandbox messages are test
   * traffic that anyone may send and nobody is told about, so they are kept only for a while.
   */
  purgeSandbox(before: number): number {
    return this.statements.purgeSandbox.run(before).changes;
  }

  recordDelivery(id: number): void {
    this.statements.delivered.run(id);
  }

  recordFailure(id: number, error: string, nextAt: number | null): void {
    this.statements.failed.run(error.slice(0, 500), nextAt, nextAt, id);
  }
}
