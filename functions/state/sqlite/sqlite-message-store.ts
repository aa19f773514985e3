import type {
  InboxQuery,
  MessageStore,
  NotifyState,
  StoredMessage,
  Submission,
  SubmissionOutcome,
} from '../../contact/message-store.ts';
import { withStorage } from '../storage-errors.ts';
import type { Db } from './database.ts';
import type { InFlightKeys } from './in-flight-keys.ts';
import type { SqliteIdempotencyStore } from './sqlite-idempotency-store.ts';

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

/** The inbox in SQLite (migration 1). */
export class SqliteMessageStore implements MessageStore {
  /** The statements of the request path and of the notifier (which runs after every stored message), prepared once. */
  private readonly statements;

  constructor(
    private readonly db: Db,
    private readonly idempotency: SqliteIdempotencyStore,
    private readonly inFlight: InFlightKeys,
    private readonly idempotencyTtlMs: number,
  ) {
    this.statements = {
      insert: db.prepare(
        `INSERT INTO messages (sandbox, name, email, message, created_at, notify_state, notify_next_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      saveAnswer: db.prepare(
        `INSERT INTO idempotency (scope, sandbox, key, state, fingerprint, status, body, created_at, expires_at) VALUES (?, ?, ?, 'done', ?, ?, ?, ?, ?)
         ON CONFLICT (scope, sandbox, key) DO UPDATE SET state = 'done', fingerprint = excluded.fingerprint, status = excluded.status,
           body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      ),
      claimDue: db.prepare(
        `UPDATE messages SET notify_next_at = ? WHERE id IN
           (SELECT id FROM messages WHERE notify_state = 'pending' AND notify_next_at <= ? ORDER BY id LIMIT ?)
         RETURNING *`,
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

  async storeSubmission(submission: Submission, now = Date.now()): Promise<SubmissionOutcome> {
    const { ref, token, message, notifyState, answer } = submission;
    try {
      if (!this.inFlight.holds(ref, token)) return { stored: false };
      return withStorage(() =>
        this.db.transaction((): SubmissionOutcome => {
          // Another process on the same DATA_DIR (a second `npm start` by mistake) may have stored it meanwhile.
          const earlier = this.idempotency.find(ref, now);
          if (earlier !== undefined) return { stored: false, earlier };
          const { lastInsertRowid } = this.statements.insert.run(
            Number(message.sandbox),
            message.name,
            message.email,
            message.message,
            now,
            notifyState,
            notifyState === 'pending' ? now : null,
          );
          this.statements.saveAnswer.run(
            ref.scope,
            Number(ref.sandbox),
            ref.key,
            answer.fingerprint,
            answer.status,
            answer.body,
            now,
            now + this.idempotencyTtlMs,
          );
          return { stored: true, id: Number(lastInsertRowid) };
        })(),
      );
    } finally {
      this.inFlight.leave(ref, token);
    }
  }

  async list(query: InboxQuery): Promise<StoredMessage[]> {
    const rows = withStorage(
      () =>
        this.db
          .prepare(
            `SELECT * FROM messages WHERE sandbox = ? AND created_at >= ? ${query.unreadOnly ? 'AND read_at IS NULL' : ''}
             ORDER BY created_at DESC, id DESC LIMIT ?`,
          )
          .all(Number(query.sandbox), query.since ?? 0, query.limit ?? -1) as MessageRow[],
    );
    return rows.map(fromRow);
  }

  async markRead(ids: readonly number[], now = Date.now()): Promise<number> {
    return withStorage(() => {
      const mark = this.db.prepare('UPDATE messages SET read_at = ? WHERE id = ? AND read_at IS NULL');
      return this.db.transaction(() => ids.reduce((changed, id) => changed + mark.run(now, id).changes, 0))();
    });
  }

  async claimDue(now: number, limit: number, claimMs: number): Promise<StoredMessage[]> {
    const rows = withStorage(() => this.statements.claimDue.all(now + claimMs, now, limit) as MessageRow[]);
    return rows.map(fromRow).sort((a, b) => a.id - b.id);
  }

  async nextNotificationAt(): Promise<number | null> {
    return withStorage(() => (this.statements.nextDue.get() as { next: number | null }).next);
  }

  async purgeSandbox(before: number): Promise<number> {
    return withStorage(() => this.statements.purgeSandbox.run(before).changes);
  }

  async recordDelivery(id: number): Promise<void> {
    withStorage(() => this.statements.delivered.run(id));
  }

  async recordFailure(id: number, error: string, nextAt: number | null): Promise<void> {
    withStorage(() => this.statements.failed.run(error.slice(0, 500), nextAt, nextAt, id));
  }
}
