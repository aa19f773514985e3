import type { PgPool } from './pg-connections.ts';
import type {
  ClaimedJob,
  EnqueueOutcome,
  JobError,
  JobOutcome,
  JobStore,
  JobView,
  NewJob,
  QueueShares,
  RunShares,
} from '../../jobs/job-store.ts';
import { withPostgres } from './pg-errors.ts';
import { inTransaction } from './pg-transaction.ts';
import { JOB_COLUMNS, toJobView, type JobRow } from '../job-row.ts';

/**
 * Advisory locks (transaction-scoped) that make a check and the write it allows one step across
 * instances. Each counts rows no row lock covers (a client's waiting jobs, the running ones), so
 * SKIP LOCKED alone could not keep the shares. Enqueues and claims are rare next to reads.
 */
const ENQUEUE_LOCK = 7_361_902_115;
const CLAIM_LOCK = 7_361_902_116;
/** Trims of finished jobs, which could otherwise lock the same old rows in different orders. */
const TRIM_LOCK = 7_361_902_117;

/** A finished job is one whose result (or error) is stored: what the per-client cap counts. */
const FINISHED = "status IN ('succeeded', 'failed')";

/** Counted after the lock, so the counts include every job another instance enqueued before it. */
const COUNT_AND_INSERT = `
  WITH counts AS (
    SELECT
      (SELECT COUNT(*) FROM jobs WHERE owner = $3 AND status = 'pending' AND expires_at > $6) AS own,
      (SELECT COUNT(*) FROM jobs WHERE sandbox = $2 AND status = 'pending' AND expires_at > $6) AS mode
  ), inserted AS (
    INSERT INTO jobs (id, sandbox, owner, task, input, status, created_at, updated_at, expires_at)
    SELECT $1, $2::boolean, $3, $4, $5, 'pending', $6::bigint, $6::bigint, $7::bigint FROM counts
    WHERE own < $8 AND mode < $9
    RETURNING 1
  )
  SELECT own, mode, EXISTS (SELECT 1 FROM inserted) AS queued FROM counts`;

/** Live jobs first (false sorts first), then the oldest, skipping clients that run their share. */
const CLAIM_NEXT = `
  WITH next AS (
    SELECT id FROM jobs AS waiting
    WHERE status = 'pending' AND expires_at > $1
      AND (SELECT COUNT(*) FROM jobs WHERE status = 'running') < $2
      AND (SELECT COUNT(*) FROM jobs AS running WHERE running.owner = waiting.owner AND running.status = 'running') < $3
    ORDER BY sandbox, created_at, seq
    LIMIT 1 FOR UPDATE SKIP LOCKED
  )
  UPDATE jobs SET status = 'running', locked_by = $4, attempts = attempts + 1,
    lease_until = $1::bigint + $5::bigint, updated_at = $1
  FROM next WHERE jobs.id = next.id
  RETURNING jobs.id, jobs.task, jobs.input, jobs.owner, jobs.attempts`;

/** The job's run is this worker's: the fence of every write a worker makes. */
const HELD = "id = $1 AND locked_by = $2 AND status = 'running'";

/** The job queue in PostgreSQL, shared by every instance: workers lease jobs and renew the leases. */
export class PgJobStore implements JobStore {
  constructor(private readonly pool: PgPool) {}

  enqueue(job: NewJob, shares: QueueShares, now: number, expiresAt: number): Promise<EnqueueOutcome> {
    return withPostgres(async () => {
      const counts = await inTransaction(
        this.pool,
        async (client) =>
          (
            await client.query<{ own: number; mode: number; queued: boolean }>(COUNT_AND_INSERT, [
              job.id,
              job.sandbox,
              job.owner,
              job.task,
              JSON.stringify(job.input),
              now,
              expiresAt,
              shares.queuePerClient,
              shares.queueLimit,
            ])
          ).rows[0],
        `BEGIN; SELECT pg_advisory_xact_lock(${ENQUEUE_LOCK})`,
      );
      if (counts === undefined || counts.queued) return { queued: true };
      // The client's own share first: when it is used up, the answer is about this client, not the service.
      if (counts.own >= shares.queuePerClient) return { queued: false, full: 'client', waiting: counts.own };
      return { queued: false, full: 'queue', waiting: counts.mode };
    });
  }

  async find(id: string, sandbox: boolean, now: number): Promise<JobView | undefined> {
    return (await this.findMany([id], sandbox, now)).get(id);
  }

  findMany(ids: readonly string[], sandbox: boolean, now: number): Promise<Map<string, JobView>> {
    return withPostgres(async () => {
      const { rows } = await this.pool.query<JobRow>(
        `SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ANY($1::text[]) AND sandbox = $2 AND expires_at > $3`,
        [ids, sandbox, now],
      );
      return new Map(rows.map((row) => [row.id, toJobView(row)]));
    });
  }

  claimNext(worker: string, shares: RunShares, leaseMs: number, now: number): Promise<ClaimedJob | undefined> {
    return withPostgres(async () => {
      const row = await inTransaction(
        this.pool,
        async (client) =>
          (
            await client.query<{ id: string; task: string; input: string; owner: string; attempts: number }>(
              CLAIM_NEXT,
              [now, shares.concurrency, shares.runningPerClient, worker, leaseMs],
            )
          ).rows[0],
        `BEGIN; SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`,
      );
      if (row === undefined) return undefined;
      return {
        id: row.id,
        task: row.task,
        input: JSON.parse(row.input) as unknown,
        owner: row.owner,
        attempt: row.attempts,
      };
    });
  }

  renewLease(id: string, worker: string, leaseMs: number, now: number): Promise<boolean> {
    return withPostgres(async () => {
      const { rowCount } = await this.pool.query(
        `UPDATE jobs SET lease_until = $3::bigint + $4::bigint WHERE ${HELD}`,
        [id, worker, now, leaseMs],
      );
      return rowCount === 1;
    });
  }

  async setProgress(id: string, worker: string, progress: number, now: number): Promise<void> {
    await withPostgres(() =>
      this.pool.query(`UPDATE jobs SET progress = GREATEST(progress, $3), updated_at = $4 WHERE ${HELD}`, [
        id,
        worker,
        progress,
        now,
      ]),
    );
  }

  finish(id: string, worker: string, outcome: JobOutcome, resultsPerClient: number, now: number): Promise<boolean> {
    const [status, result, error] =
      'result' in outcome
        ? ['succeeded', JSON.stringify(outcome.result), null]
        : ['failed', null, JSON.stringify(outcome.error)];
    return withPostgres(() =>
      inTransaction(this.pool, async (client) => {
        const { rows } = await client.query<{ owner: string }>(
          `UPDATE jobs SET status = $3, result = $4, error = $5, updated_at = $6, locked_by = NULL, lease_until = NULL,
             progress = CASE WHEN $3 = 'succeeded' THEN 1 ELSE progress END
           WHERE ${HELD} RETURNING owner`,
          [id, worker, status, result, error, now],
        );
        const finished = rows[0];
        if (finished === undefined) return false;
        await client.query('SELECT pg_advisory_xact_lock($1)', [TRIM_LOCK]);
        await client.query(
          `DELETE FROM jobs WHERE owner = $1 AND ${FINISHED} AND id NOT IN
             (SELECT id FROM jobs WHERE owner = $1 AND ${FINISHED} ORDER BY updated_at DESC, seq DESC LIMIT $2)`,
          [finished.owner, resultsPerClient],
        );
        return true;
      }),
    );
  }

  reapExpired(maxAttempts: number, error: JobError, now: number): Promise<number> {
    return withPostgres(async () => {
      const { rowCount } = await this.pool.query(
        `UPDATE jobs SET
           status = CASE WHEN attempts < $1 THEN 'pending' ELSE 'failed' END,
           error = CASE WHEN attempts < $1 THEN NULL ELSE $2 END,
           progress = CASE WHEN attempts < $1 THEN 0 ELSE progress END,
           locked_by = NULL, lease_until = NULL, updated_at = $3
         WHERE status = 'running' AND lease_until < $3`,
        [maxAttempts, JSON.stringify(error), now],
      );
      return rowCount ?? 0;
    });
  }

  /** Nothing to do: a running job may belong to another instance, and the reaper takes over those whose worker died. */
  recoverAtStart(): Promise<number> {
    return Promise.resolve(0);
  }

  purge(resultsPerClient: number, now: number): Promise<number> {
    return withPostgres(async () => {
      const expired = await this.pool.query('DELETE FROM jobs WHERE expires_at <= $1', [now]);
      const trimmed = await inTransaction(
        this.pool,
        (client) =>
          client.query(
            `DELETE FROM jobs WHERE id IN (SELECT id FROM
               (SELECT id, ROW_NUMBER() OVER (PARTITION BY owner ORDER BY updated_at DESC, seq DESC) AS newness
                FROM jobs WHERE ${FINISHED}) AS ranked
             WHERE newness > $1)`,
            [resultsPerClient],
          ),
        `BEGIN; SELECT pg_advisory_xact_lock(${TRIM_LOCK})`,
      );
      return (expired.rowCount ?? 0) + (trimmed.rowCount ?? 0);
    });
  }
}
