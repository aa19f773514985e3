import type {
  Channel,
  DueDelivery,
  InboxQuery,
  MessageStore,
  Requeued,
  SandboxShare,
  StoredMessage,
  Submission,
  SubmissionOutcome,
} from '../../contact/message-store.ts';
import {
  MAX_ERROR_LENGTH,
  MESSAGE_COLUMNS,
  newMessageValues,
  NEW_MESSAGE_COLUMNS,
  sandboxShares,
  toMessageRecord,
  withDeliveries,
  type DeliveryRow,
  type MessageRow,
} from '../message-rows.ts';
import type { KeyRef } from '../../contact/idempotency-store.ts';
import { withStorage } from './sqlite-errors.ts';
import type { Db } from './database.ts';
import type { GroupCommit } from './group-commit.ts';
import type { InFlightKeys } from './in-flight-keys.ts';
import type { SqliteIdempotencyStore } from './sqlite-idempotency-store.ts';

/** The inbox (migration 1, its folders migration 6) and its outbox (table deliveries, migration 5) in SQLite. */
export class SqliteMessageStore implements MessageStore {
  /** The statements of the request path and of the notifiers (which run after every stored message), prepared once. */
  private readonly statements;

  /** `commits`: submissions arriving together commit together (one commit per event-loop turn, not per message). */
  constructor(
    private readonly db: Db,
    private readonly idempotency: SqliteIdempotencyStore,
    private readonly inFlight: InFlightKeys,
    private readonly idempotencyTtlMs: number,
    private readonly commits: GroupCommit,
  ) {
    this.statements = {
      insert: db.prepare(
        `INSERT INTO messages (${NEW_MESSAGE_COLUMNS})
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      shareBytes: db.prepare('SELECT bytes FROM sandbox_shares WHERE owner = ?'),
      deleteOldestOfClient: db.prepare(
        'DELETE FROM messages WHERE id = (SELECT MIN(id) FROM messages WHERE sandbox_client = ?)',
      ),
      deleteOldestOfKey: db.prepare(
        'DELETE FROM messages WHERE id = (SELECT MIN(id) FROM messages WHERE sandbox_key = ?)',
      ),
      insertDelivery: db.prepare(
        "INSERT INTO deliveries (message_id, channel, state, attempts, next_at) VALUES (?, ?, 'pending', 0, ?)",
      ),
      // A live answer is never replaced; an expired one, or a claim an earlier version left behind, is.
      recordAnswer: db.prepare(
        `INSERT INTO idempotency (scope, sandbox, key, state, fingerprint, status, body, created_at, expires_at) VALUES (?, ?, ?, 'done', ?, ?, ?, ?, ?)
         ON CONFLICT (scope, sandbox, key) DO UPDATE SET state = 'done', fingerprint = excluded.fingerprint, status = excluded.status,
           body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at
         WHERE idempotency.state <> 'done' OR idempotency.expires_at <= excluded.created_at`,
      ),
      claimDue: db.prepare(
        `UPDATE deliveries SET next_at = ? WHERE channel = ? AND message_id IN
           (SELECT message_id FROM deliveries WHERE channel = ? AND state = 'pending' AND next_at <= ? ORDER BY message_id LIMIT ?)
         RETURNING message_id, attempts`,
      ),
      message: db.prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = ?`),
      nextDue: db.prepare("SELECT MIN(next_at) AS next FROM deliveries WHERE channel = ? AND state = 'pending'"),
      delivered: db.prepare(
        `UPDATE deliveries SET state = 'delivered', attempts = attempts + 1, next_at = NULL, last_error = NULL
         WHERE message_id = ? AND channel = ?`,
      ),
      failed: db.prepare(
        `UPDATE deliveries SET attempts = attempts + 1, last_error = ?, next_at = ?,
           state = CASE WHEN ? IS NULL THEN 'failed' ELSE 'pending' END WHERE message_id = ? AND channel = ?`,
      ),
      requeue: db.prepare(
        `INSERT INTO deliveries (message_id, channel, state, attempts, next_at)
           SELECT id, ?, 'pending', 0, ? FROM messages WHERE id = ? AND sandbox = 0 AND folder = 'inbox'
         ON CONFLICT (message_id, channel) DO UPDATE SET state = 'pending', attempts = 0, next_at = excluded.next_at,
           last_error = NULL WHERE deliveries.state = 'failed'
         RETURNING message_id`,
      ),
      toInbox: db.prepare("UPDATE messages SET folder = 'inbox' WHERE id = ? AND sandbox = 0 AND folder = 'spam'"),
      deliveryState: db.prepare('SELECT state FROM deliveries WHERE message_id = ? AND channel = ?'),
      purgeSandbox: db.prepare('DELETE FROM messages WHERE sandbox = 1 AND created_at < ?'),
      countSpam: db.prepare(
        "SELECT COUNT(*) AS spam FROM messages WHERE sandbox = 0 AND folder = 'spam' AND created_at >= ?",
      ),
    };
  }

  async storeSubmission(submission: Submission, now = Date.now()): Promise<SubmissionOutcome> {
    const { ref, token } = submission;
    try {
      // As on every engine: a claim that ended with a commit shows that commit's answer.
      if (!this.inFlight.holds(ref, token)) return this.replay(ref, now) ?? { stored: false };
      // One transaction (a savepoint of the group's, committed with it), in PgMessageStore's steps:
      // a throw in any of them leaves none of them stored.
      return await this.commits.run((): SubmissionOutcome => {
        // Another process on the same DATA_DIR (a second `npm start` by mistake) may have answered it meanwhile.
        if (!this.recordAnswer(submission, now)) return this.replay(ref, now) ?? { stored: false };
        const id = this.insertMessage(submission, now);
        this.queueDeliveries(id, submission.channels, now);
        if (submission.sandboxShare !== undefined) this.trimShares(submission.sandboxShare);
        return { stored: true, id };
      });
    } finally {
      this.inFlight.leave(ref, token);
    }
  }

  /** Records the key's answer, which ends its claim; false when the key has a live answer already. */
  private recordAnswer({ ref, answer }: Submission, now: number): boolean {
    const { scope, sandbox, key } = ref;
    const { fingerprint, status, body } = answer;
    const expiresAt = now + this.idempotencyTtlMs;
    return (
      this.statements.recordAnswer.run(scope, Number(sandbox), key, fingerprint, status, body, now, expiresAt)
        .changes === 1
    );
  }

  /** Inserts the message; returns its id. */
  private insertMessage(submission: Submission, now: number): number {
    const [sandbox, ...rest] = newMessageValues(submission, now);
    const { lastInsertRowid } = this.statements.insert.run(Number(sandbox), ...rest);
    return Number(lastInsertRowid);
  }

  /** The message's outbox: one pending delivery per channel, due now. */
  private queueDeliveries(id: number, channels: readonly Channel[], now: number): void {
    for (const channel of channels) this.statements.insertDelivery.run(id, channel, now);
  }

  /** The refusal that shows the answer already recorded for `ref`, if one is. */
  private replay(ref: KeyRef, now: number): SubmissionOutcome | undefined {
    const earlier = this.idempotency.find(ref, now);
    return earlier === undefined ? undefined : { stored: false, earlier };
  }

  /** Deletes the oldest messages of each share the new message counts against until the share fits again. */
  private trimShares(share: SandboxShare): void {
    for (const { owner, column, value } of sandboxShares(share)) {
      const deleteOldest =
        column === 'sandbox_client' ? this.statements.deleteOldestOfClient : this.statements.deleteOldestOfKey;
      for (;;) {
        const total = this.statements.shareBytes.get(owner) as { bytes: number } | undefined;
        if ((total?.bytes ?? 0) <= share.maxBytes || deleteOldest.run(value).changes === 0) break;
      }
    }
  }

  async list(query: InboxQuery): Promise<StoredMessage[]> {
    return withStorage(() => {
      const messages = this.db
        .prepare(
          `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE sandbox = ? AND folder = ? AND created_at >= ? ${query.unreadOnly ? 'AND read_at IS NULL' : ''}
           ORDER BY created_at DESC, id DESC LIMIT ?`,
        )
        .all(Number(query.sandbox), query.folder ?? 'inbox', query.since ?? 0, query.limit ?? -1) as MessageRow[];
      const deliveries = this.db
        .prepare('SELECT * FROM deliveries WHERE message_id IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify(messages.map((message) => message.id))) as DeliveryRow[];
      return withDeliveries(messages, deliveries);
    });
  }

  async markRead(ids: readonly number[], now = Date.now()): Promise<number> {
    return withStorage(() => {
      const mark = this.db.prepare('UPDATE messages SET read_at = ? WHERE id = ? AND read_at IS NULL');
      return this.db.transaction(() => ids.reduce((changed, id) => changed + mark.run(now, id).changes, 0))();
    });
  }

  async claimDue(channel: Channel, now: number, limit: number, claimMs: number): Promise<DueDelivery[]> {
    return withStorage(() =>
      this.db.transaction(() => {
        const claimed = this.statements.claimDue.all(now + claimMs, channel, channel, now, limit) as {
          message_id: number;
          attempts: number;
        }[];
        return claimed
          .sort((a, b) => a.message_id - b.message_id)
          .map(({ message_id, attempts }) => ({
            message: toMessageRecord(this.statements.message.get(message_id) as MessageRow),
            attempts,
          }));
      })(),
    );
  }

  async nextDeliveryAt(channel: Channel): Promise<number | null> {
    return withStorage(() => (this.statements.nextDue.get(channel) as { next: number | null }).next);
  }

  async recordDelivery(id: number, channel: Channel): Promise<void> {
    withStorage(() => this.statements.delivered.run(id, channel));
  }

  async recordFailure(id: number, channel: Channel, error: string, nextAt: number | null): Promise<void> {
    withStorage(() => this.statements.failed.run(error.slice(0, MAX_ERROR_LENGTH), nextAt, nextAt, id, channel));
  }

  async requeue(ids: readonly number[], channels: readonly Channel[], now = Date.now()): Promise<Requeued[]> {
    return withStorage(() =>
      this.db.transaction(() => {
        const queued: Requeued[] = [];
        for (const id of ids) {
          for (const channel of channels) {
            const before = this.statements.deliveryState.get(id, channel) as { state: string } | undefined;
            if (this.statements.requeue.get(channel, now, id) !== undefined)
              queued.push({ id, channel, was: before === undefined ? null : 'failed' });
          }
        }
        return queued;
      })(),
    );
  }

  async moveToInbox(ids: readonly number[], channels: readonly Channel[], now = Date.now()): Promise<number[]> {
    return withStorage(() =>
      this.db.transaction(() => {
        // Ascending, as on every engine; a repeated id moves (and is named) once.
        const moved = [...ids].sort((a, b) => a - b).filter((id) => this.statements.toInbox.run(id).changes > 0);
        for (const id of moved) for (const channel of channels) this.statements.requeue.get(channel, now, id);
        return moved;
      })(),
    );
  }

  async purgeSandbox(before: number): Promise<number> {
    return withStorage(() => this.statements.purgeSandbox.run(before).changes);
  }

  async countSpam(since: number): Promise<number> {
    return withStorage(() => (this.statements.countSpam.get(since) as { spam: number }).spam);
  }
}
