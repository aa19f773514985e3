import type { PoolClient } from 'pg';
import type { PgPool } from './pg-connections.ts';
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
import type { RecordedAnswer } from '../../contact/idempotency-store.ts';
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
import { withPostgres } from './pg-errors.ts';
import { PgGroupCommit } from './pg-group-commit.ts';
import { inTransaction } from './pg-transaction.ts';

/**
 * Submissions in one statement, so one round trip and, outside a sandbox share's transaction,
 * no BEGIN or COMMIT of their own: for each, the key's answer (which ends its claim, only while
 * the claim is still this request's token), the message, and its outbox (one pending delivery
 * per channel, due when it was stored). A message and its deliveries are written only when its
 * answer was, and a single statement commits all or nothing, as the transaction of
 * SqliteMessageStore does. Each parameter is an array with an element per submission, in
 * SUBMISSION_COLUMNS' order (channels joined by commas); ids are drawn first so that each comes
 * back beside its submission's ordinal. The deliveries' foreign key is checked at the statement's
 * end, when the messages are there. Returns (ord, id) for each submission stored; one whose
 * claim was no longer its request's has no row.
 */
const STORE_SUBMISSIONS = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::boolean[], $3::text[], $4::text[], $5::text[], $6::integer[], $7::text[],
      $8::bigint[], $9::boolean[], $10::text[], $11::text[], $12::text[], $13::bigint[], $14::text[], $15::text[],
      $16::text[], $17::text[], $18::integer[], $19::text[])
    WITH ORDINALITY AS submitted (scope, key_sandbox, key, token, fingerprint, status, body, expires_at,
      ${NEW_MESSAGE_COLUMNS}, channels, ord)
  ), answered AS (
    UPDATE idempotency SET state = 'done', token = NULL, locked_until = NULL,
      fingerprint = input.fingerprint, status = input.status, body = input.body, expires_at = input.expires_at
    FROM input
    WHERE idempotency.scope = input.scope AND idempotency.sandbox = input.key_sandbox AND idempotency.key = input.key
      AND idempotency.state = 'in_flight' AND idempotency.token = input.token
    RETURNING input.ord
  ), numbered AS MATERIALIZED (
    SELECT input.*, nextval(pg_get_serial_sequence('messages', 'id')) AS id FROM input JOIN answered USING (ord)
  ), stored AS (
    INSERT INTO messages (id, ${NEW_MESSAGE_COLUMNS}) SELECT id, ${NEW_MESSAGE_COLUMNS} FROM numbered
  ), queued AS (
    INSERT INTO deliveries (message_id, channel, state, attempts, next_at)
      SELECT numbered.id, channel, 'pending', 0, numbered.created_at
      FROM numbered, unnest(string_to_array(numbered.channels, ',')) AS channel
  )
  SELECT ord, id FROM numbered`;

/** Submissions storing at the same time share a statement; at most this many batches run at once, of at most this many. */
const STORE_GROUPS = { inFlight: 4, batch: 64 };

/**
 * Serializes the writes that change sandbox shares (a sandbox submission, the retention purge)
 * across instances until the transaction ends: each then finds every earlier message in its
 * share's total, and two never wait on each other's share rows (a trim touches the shares of the
 * messages it deletes, in no set order). Sandbox writes are few (their quota is small), so one
 * lock costs nothing that matters.
 */
const LOCK_SHARES = "SELECT pg_advisory_xact_lock(hashtextextended('portfolio:sandbox-shares', 0))";
const SHARE_BYTES = 'SELECT bytes FROM sandbox_shares WHERE owner = $1';
const DELETE_OLDEST = {
  sandbox_client: 'DELETE FROM messages WHERE id = (SELECT MIN(id) FROM messages WHERE sandbox_client = $1)',
  sandbox_key: 'DELETE FROM messages WHERE id = (SELECT MIN(id) FROM messages WHERE sandbox_key = $1)',
} as const;

const EARLIER_ANSWER = `SELECT fingerprint, status, body FROM idempotency
  WHERE scope = $1 AND sandbox = $2 AND key = $3 AND state = 'done' AND expires_at > $4`;

/**
 * Due deliveries, at most $2, each taken by one claimer: rows another claimer has locked are
 * skipped, not waited for. The due rows are picked once, in a CTE (PostgreSQL evaluates a data-
 * modifying statement's CTE exactly once), and the UPDATE joins them: with `message_id IN
 * (subquery ... LIMIT)` the planner may choose a nested-loop semi join that runs the LIMIT
 * subquery again for each row, and then claims every due delivery.
 */
const CLAIM_DUE = `
  WITH due AS (
    SELECT message_id FROM deliveries WHERE channel = $4 AND state = 'pending' AND next_at <= $1
    ORDER BY message_id LIMIT $2 FOR UPDATE SKIP LOCKED
  ), claimed AS (
    UPDATE deliveries SET next_at = $1::bigint + $3::bigint
    FROM due WHERE deliveries.channel = $4 AND deliveries.message_id = due.message_id
    RETURNING deliveries.message_id, deliveries.attempts
  )
  SELECT ${MESSAGE_COLUMNS}, claimed.attempts FROM claimed JOIN messages ON messages.id = claimed.message_id
  ORDER BY id`;

/** A live message's delivery to a channel, created or started over if it had failed (MessageStore.requeue). */
const REQUEUE = `
  WITH before AS (SELECT state FROM deliveries WHERE message_id = $1 AND channel = $2)
  INSERT INTO deliveries AS d (message_id, channel, state, attempts, next_at)
    SELECT id, $2, 'pending', 0, $3 FROM messages WHERE id = $1 AND NOT sandbox AND folder = 'inbox'
  ON CONFLICT (message_id, channel) DO UPDATE SET state = 'pending', attempts = 0, next_at = EXCLUDED.next_at,
    last_error = NULL WHERE d.state = 'failed'
  RETURNING (SELECT state FROM before) AS was`;

/** The inbox and its outbox in PostgreSQL; `ttlMs` is how long a key's recorded answer is kept. */
export class PgMessageStore implements MessageStore {
  constructor(
    private readonly pool: PgPool,
    private readonly ttlMs: number,
  ) {}

  /** Submissions without a sandbox share, grouped into shared statements (functions/state/postgres/pg-group-commit.ts). */
  private readonly grouped = new PgGroupCommit((rows: unknown[][]) => storedIds(this.pool, rows), STORE_GROUPS);

  storeSubmission(submission: Submission, now = Date.now()): Promise<SubmissionOutcome> {
    const { ref, sandboxShare: share } = submission;
    const row = this.submissionRow(submission, now);
    return withPostgres(async () => {
      // A sandbox message trims its shares in the same transaction, under the shares' lock (see
      // LOCK_SHARES); any other message commits in a statement of its own or shared with others.
      const id =
        share === undefined
          ? await this.grouped.submit(row)
          : await inTransaction(
              this.pool,
              async (client) => {
                const [id] = await storedIds(client, [row]);
                if (id !== null) await trimShares(client, share);
                return id!;
              },
              `BEGIN; ${LOCK_SHARES}`,
            );
      if (id !== null) return { stored: true, id };
      const earlier = await this.pool.query<RecordedAnswer>(EARLIER_ANSWER, [ref.scope, ref.sandbox, ref.key, now]);
      return { stored: false, earlier: earlier.rows[0] };
    });
  }

  /** A submission's values for STORE_SUBMISSIONS, in its columns' order. */
  private submissionRow(submission: Submission, now: number): unknown[] {
    const { ref, token, answer, channels } = submission;
    const { fingerprint, status, body } = answer;
    const keyAnswer = [ref.scope, ref.sandbox, ref.key, token, fingerprint, status, body, now + this.ttlMs];
    return [...keyAnswer, ...newMessageValues(submission, now), channels.join(',')];
  }

  list({ sandbox, folder, since, unreadOnly, limit }: InboxQuery): Promise<StoredMessage[]> {
    return withPostgres(async () => {
      const messages = await this.pool.query<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE sandbox = $1 AND folder = $4 AND created_at >= $2 ${unreadOnly ? 'AND read_at IS NULL' : ''}
         ORDER BY created_at DESC, id DESC LIMIT $3`,
        [sandbox, since ?? 0, limit ?? null, folder ?? 'inbox'],
      );
      const deliveries = await this.pool.query<DeliveryRow>(
        'SELECT * FROM deliveries WHERE message_id = ANY($1::bigint[])',
        [messages.rows.map((row) => row.id)],
      );
      return withDeliveries(messages.rows, deliveries.rows);
    });
  }

  markRead(ids: readonly number[], now = Date.now()): Promise<number> {
    return this.change('UPDATE messages SET read_at = $1 WHERE id = ANY($2::bigint[]) AND read_at IS NULL', [now, ids]);
  }

  claimDue(channel: Channel, now: number, limit: number, claimMs: number): Promise<DueDelivery[]> {
    return withPostgres(async () => {
      const { rows } = await this.pool.query<MessageRow & { attempts: number }>(CLAIM_DUE, [
        now,
        limit,
        claimMs,
        channel,
      ]);
      return rows.map((row) => ({ message: toMessageRecord(row), attempts: row.attempts }));
    });
  }

  nextDeliveryAt(channel: Channel): Promise<number | null> {
    return withPostgres(async () => {
      const { rows } = await this.pool.query<{ next: number | null }>(
        "SELECT MIN(next_at) AS next FROM deliveries WHERE channel = $1 AND state = 'pending'",
        [channel],
      );
      return rows[0]?.next ?? null;
    });
  }

  async recordDelivery(id: number, channel: Channel): Promise<void> {
    await this.change(
      `UPDATE deliveries SET state = 'delivered', attempts = attempts + 1, next_at = NULL, last_error = NULL
       WHERE message_id = $1 AND channel = $2`,
      [id, channel],
    );
  }

  async recordFailure(id: number, channel: Channel, error: string, nextAt: number | null): Promise<void> {
    await this.change(
      `UPDATE deliveries SET attempts = attempts + 1, last_error = $3, next_at = $4,
         state = CASE WHEN $4::bigint IS NULL THEN 'failed' ELSE 'pending' END WHERE message_id = $1 AND channel = $2`,
      [id, channel, error.slice(0, MAX_ERROR_LENGTH), nextAt],
    );
  }

  requeue(ids: readonly number[], channels: readonly Channel[], now = Date.now()): Promise<Requeued[]> {
    return withPostgres(async () => {
      const queued: Requeued[] = [];
      for (const id of ids) {
        for (const channel of channels) {
          const { rows } = await this.pool.query<{ was: 'failed' | null }>(REQUEUE, [id, channel, now]);
          if (rows[0] !== undefined) queued.push({ id, channel, was: rows[0].was });
        }
      }
      return queued;
    });
  }

  moveToInbox(ids: readonly number[], channels: readonly Channel[], now = Date.now()): Promise<number[]> {
    return withPostgres(() =>
      inTransaction(this.pool, async (client) => {
        const { rows } = await client.query<{ id: number }>(
          "UPDATE messages SET folder = 'inbox' WHERE id = ANY($1::bigint[]) AND NOT sandbox AND folder = 'spam' RETURNING id",
          [ids],
        );
        const moved = rows.map((row) => row.id).sort((a, b) => a - b);
        for (const id of moved) for (const channel of channels) await client.query(REQUEUE, [id, channel, now]);
        return moved;
      }),
    );
  }

  purgeSandbox(before: number): Promise<number> {
    return withPostgres(() =>
      inTransaction(this.pool, async (client) => {
        await client.query(LOCK_SHARES);
        return (await client.query('DELETE FROM messages WHERE sandbox AND created_at < $1', [before])).rowCount ?? 0;
      }),
    );
  }

  countSpam(since: number): Promise<number> {
    return withPostgres(async () => {
      const { rows } = await this.pool.query<{ spam: number }>(
        "SELECT COUNT(*)::integer AS spam FROM messages WHERE NOT sandbox AND folder = 'spam' AND created_at >= $1",
        [since],
      );
      return rows[0]!.spam;
    });
  }

  private change(sql: string, values: unknown[]): Promise<number> {
    return withPostgres(async () => (await this.pool.query(sql, values)).rowCount ?? 0);
  }
}

/**
 * Runs STORE_SUBMISSIONS for `rows` (submissionRow's): each one's new message id, or null when
 * its claim was no longer its request's.
 */
async function storedIds(on: Pick<PoolClient, 'query'>, rows: unknown[][]): Promise<(number | null)[]> {
  const columns = rows[0]!.map((_, column) => rows.map((row) => row[column]));
  const { rows: stored } = await on.query<{ ord: number; id: number }>(STORE_SUBMISSIONS, columns);
  const ids: (number | null)[] = rows.map(() => null);
  for (const { ord, id } of stored) ids[ord - 1] = id;
  return ids;
}

/** Deletes the oldest messages of each share the new message counts against until the share fits again. */
async function trimShares(client: PoolClient, share: SandboxShare): Promise<void> {
  for (const { owner, column, value } of sandboxShares(share)) {
    for (;;) {
      const total = (await client.query<{ bytes: number }>(SHARE_BYTES, [owner])).rows[0];
      if ((total?.bytes ?? 0) <= share.maxBytes) break;
      if ((await client.query(DELETE_OLDEST[column], [value])).rowCount === 0) break;
    }
  }
}
