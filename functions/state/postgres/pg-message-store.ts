import type { Pool } from 'pg';
import type {
  InboxQuery,
  MessageStore,
  NotifyState,
  StoredMessage,
  Submission,
  SubmissionOutcome,
} from '../../contact/message-store.ts';
import type { RecordedAnswer } from '../idempotency-store.ts';
import { withPostgres } from './pg-errors.ts';

/** A message row as StoredMessage names it. */
const COLUMNS = `id, sandbox, name, email, message, created_at AS "createdAt", read_at AS "readAt",
  notify_state AS "notifyState", notify_attempts AS "notifyAttempts", notify_next_at AS "notifyNextAt",
  notify_last_error AS "notifyLastError"`;

/**
 * The answer and the message in one statement, so one round trip and one atomic commit: the
 * message is inserted only if the answer was recorded, which happens only while the claim is
 * still this request's token. Parameters fed through SELECT carry casts: PostgreSQL cannot infer
 * their types from the target columns there.
 */
const STORE_SUBMISSION = `
  WITH answered AS (
    UPDATE idempotency SET state = 'done', token = NULL, locked_until = NULL,
      fingerprint = $5, status = $6, body = $7, expires_at = $8
    WHERE scope = $1 AND sandbox = $2 AND key = $3 AND state = 'in_flight' AND token = $4
    RETURNING 1
  )
  INSERT INTO messages (sandbox, name, email, message, created_at, notify_state, notify_next_at)
  SELECT $9::boolean, $10::text, $11::text, $12::text, $13::bigint, $14::text, $15::bigint FROM answered
  RETURNING id`;

const EARLIER_ANSWER = `SELECT fingerprint, status, body FROM idempotency
  WHERE scope = $1 AND sandbox = $2 AND key = $3 AND state = 'done' AND expires_at > $4`;

/** Due messages, each taken by one claimer: rows another claimer has locked are skipped, not waited for. */
const CLAIM_DUE = `
  UPDATE messages SET notify_next_at = $1::bigint + $3::bigint
  WHERE id IN (
    SELECT id FROM messages WHERE notify_state = 'pending' AND notify_next_at <= $1
    ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED
  )
  RETURNING ${COLUMNS}`;

/** The inbox in PostgreSQL; `ttlMs` is how long a key's recorded answer is kept. */
export class PgMessageStore implements MessageStore {
  constructor(
    private readonly pool: Pool,
    private readonly ttlMs: number,
  ) {}

  storeSubmission(
    { ref, token, message, notifyState, answer }: Submission,
    now = Date.now(),
  ): Promise<SubmissionOutcome> {
    return withPostgres(async () => {
      const { rows } = await this.pool.query<{ id: number }>(STORE_SUBMISSION, [
        ref.scope,
        ref.sandbox,
        ref.key,
        token,
        answer.fingerprint,
        answer.status,
        answer.body,
        now + this.ttlMs,
        message.sandbox,
        message.name,
        message.email,
        message.message,
        now,
        notifyState,
        notifyState === 'pending' ? now : null,
      ]);
      const stored = rows[0];
      if (stored !== undefined) return { stored: true, id: stored.id };
      const earlier = await this.pool.query<RecordedAnswer>(EARLIER_ANSWER, [ref.scope, ref.sandbox, ref.key, now]);
      return { stored: false, earlier: earlier.rows[0] };
    });
  }

  list({ sandbox, since, unreadOnly, limit }: InboxQuery): Promise<StoredMessage[]> {
    return this.select(
      `SELECT ${COLUMNS} FROM messages WHERE sandbox = $1 AND created_at >= $2 ${unreadOnly ? 'AND read_at IS NULL' : ''}
       ORDER BY created_at DESC, id DESC LIMIT $3`,
      [sandbox, since ?? 0, limit ?? null],
    );
  }

  markRead(ids: readonly number[], now = Date.now()): Promise<number> {
    return this.change('UPDATE messages SET read_at = $1 WHERE id = ANY($2::bigint[]) AND read_at IS NULL', [now, ids]);
  }

  async claimDue(now: number, limit: number, claimMs: number): Promise<StoredMessage[]> {
    const claimed = await this.select(CLAIM_DUE, [now, limit, claimMs]);
    return claimed.sort((a, b) => a.id - b.id);
  }

  nextNotificationAt(): Promise<number | null> {
    return withPostgres(async () => {
      const { rows } = await this.pool.query<{ next: number | null }>(
        "SELECT MIN(notify_next_at) AS next FROM messages WHERE notify_state = 'pending'",
      );
      return rows[0]?.next ?? null;
    });
  }

  async recordDelivery(id: number): Promise<void> {
    await this.change(
      `UPDATE messages SET notify_state = 'delivered', notify_attempts = notify_attempts + 1, notify_next_at = NULL,
         notify_last_error = NULL WHERE id = $1`,
      [id],
    );
  }

  async recordFailure(id: number, error: string, nextAt: number | null): Promise<void> {
    const state: NotifyState = nextAt === null ? 'failed' : 'pending';
    await this.change(
      `UPDATE messages SET notify_attempts = notify_attempts + 1, notify_last_error = $2, notify_next_at = $3,
         notify_state = $4 WHERE id = $1`,
      [id, error.slice(0, 500), nextAt, state],
    );
  }

  purgeSandbox(before: number): Promise<number> {
    return this.change('DELETE FROM messages WHERE sandbox AND created_at < $1', [before]);
  }

  private select(sql: string, values: unknown[]): Promise<StoredMessage[]> {
    return withPostgres(async () => (await this.pool.query<StoredMessage>(sql, values)).rows);
  }

  private change(sql: string, values: unknown[]): Promise<number> {
    return withPostgres(async () => (await this.pool.query(sql, values)).rowCount ?? 0);
  }
}
