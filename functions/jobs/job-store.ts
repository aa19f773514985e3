import type { Db } from '../state/database.ts';

export type JobStatus = 'pending' | 'running' | 'succeeded' | 'failed';

/** Every code a failed job's `error.code` can take, with its meaning: the one list the docs read. */
export const JOB_ERROR_CODES = {
  task_failed: 'The task stopped with an error or produced a result outside its schema; create the job again.',
  interrupted: 'The server restarted while the job was running; create it again.',
} as const;

export type JobErrorCode = keyof typeof JOB_ERROR_CODES;

/** Why a job failed, in the Error shape's terms: a stable code and a sentence for people. */
export interface JobError {
  code: JobErrorCode;
  message: string;
}

/** A job as clients see it (getJobStatus). */
export interface JobView {
  jobId: string;
  task: string;
  status: JobStatus;
  /** Fraction done, 0..1. */
  progress: number;
  /** The task's result; null until the job succeeded. */
  result: Record<string, unknown> | null;
  error: JobError | null;
  createdAt: string;
  updatedAt: string;
}

/** What the runner needs to start a job. */
export interface QueuedJob {
  id: string;
  task: string;
  /** The validated input, as stored. */
  input: unknown;
  /** The client that created it: the router's quota key (its IP, or `key:<id>` for a test key). */
  owner: string;
}

/** A finished job is one whose result (or error) is stored: what the per-client cap counts. */
const FINISHED = "status IN ('succeeded', 'failed')";

interface JobRow {
  id: string;
  task: string;
  status: JobStatus;
  progress: number;
  result: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * Jobs in the `jobs` table (migrations 2 and 3). Times are epoch milliseconds; a job whose expires_at
 * has passed reads as absent even before the purge deletes it.
 */
export class JobStore {
  private readonly statements;

  constructor(db: Db) {
    // Prepared once: status reads sit on the request path, progress writes on the runner's.
    this.statements = {
      insert: db.prepare(
        `INSERT INTO jobs (id, sandbox, owner, task, input, status, progress, created_at, updated_at, expires_at)
         VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
      ),
      find: db.prepare(
        'SELECT id, task, status, progress, result, error, created_at, updated_at FROM jobs WHERE id = ? AND sandbox = ? AND expires_at > ?',
      ),
      waiting: db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status = 'pending' AND sandbox = ? AND expires_at > ?"),
      waitingOf: db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE owner = ? AND status = 'pending' AND expires_at > ?"),
      // Live jobs first (sandbox = 0 sorts first), then the oldest; a client already running its share waits its turn.
      nextRunnable: db.prepare(
        `SELECT id, task, input, owner FROM jobs AS waiting
         WHERE status = 'pending' AND expires_at > ?
           AND (SELECT COUNT(*) FROM jobs AS running WHERE running.owner = waiting.owner AND running.status = 'running') < ?
         ORDER BY sandbox, created_at, rowid LIMIT 1`,
      ),
      markRunning: db.prepare("UPDATE jobs SET status = 'running', updated_at = ? WHERE id = ? AND status = 'pending'"),
      progress: db.prepare("UPDATE jobs SET progress = ?, updated_at = ? WHERE id = ? AND status = 'running'"),
      succeed: db.prepare(
        "UPDATE jobs SET status = 'succeeded', progress = 1, result = ?, updated_at = ? WHERE id = ? AND status = 'running'",
      ),
      fail: db.prepare(
        "UPDATE jobs SET status = 'failed', error = ?, updated_at = ? WHERE id = ? AND status IN ('pending', 'running')",
      ),
      failAllRunning: db.prepare(
        "UPDATE jobs SET status = 'failed', error = ?, updated_at = ? WHERE status = 'running'",
      ),
      purge: db.prepare('DELETE FROM jobs WHERE expires_at <= ?'),
      trimFinishedOf: db.prepare(
        `DELETE FROM jobs WHERE owner = ? AND ${FINISHED} AND rowid NOT IN
           (SELECT rowid FROM jobs WHERE owner = ? AND ${FINISHED} ORDER BY updated_at DESC, rowid DESC LIMIT ?)`,
      ),
      trimFinished: db.prepare(
        `DELETE FROM jobs WHERE rowid IN (SELECT rowid FROM
           (SELECT rowid, ROW_NUMBER() OVER (PARTITION BY owner ORDER BY updated_at DESC, rowid DESC) AS newness FROM jobs WHERE ${FINISHED})
         WHERE newness > ?)`,
      ),
    };
  }

  insert(job: QueuedJob & { sandbox: boolean }, now: number, expiresAt: number): void {
    this.statements.insert.run(
      job.id,
      Number(job.sandbox),
      job.owner,
      job.task,
      JSON.stringify(job.input),
      now,
      now,
      expiresAt,
    );
  }

  /** The job as its own mode (sandbox or production) sees it; other modes and expired jobs get undefined. */
  find(id: string, sandbox: boolean, now: number): JobView | undefined {
    const row = this.statements.find.get(id, Number(sandbox), now) as JobRow | undefined;
    return row === undefined ? undefined : toView(row);
  }

  /** Pending jobs of one mode: live and sandbox jobs wait in queues of their own. */
  waiting(sandbox: boolean, now: number): number {
    return (this.statements.waiting.get(Number(sandbox), now) as { n: number }).n;
  }

  /** Pending jobs of one client, in either mode. */
  waitingOf(owner: string, now: number): number {
    return (this.statements.waitingOf.get(owner, now) as { n: number }).n;
  }

  /**
   * The job to start next: live before sandbox, then the one that has waited longest, skipping
   * clients that already run `runningPerClient` jobs.
   */
  nextRunnable(runningPerClient: number, now: number): QueuedJob | undefined {
    const row = this.statements.nextRunnable.get(now, runningPerClient) as
      { id: string; task: string; input: string; owner: string } | undefined;
    return row === undefined
      ? undefined
      : { id: row.id, task: row.task, input: JSON.parse(row.input) as unknown, owner: row.owner };
  }

  /** Moves a pending job to running; false when it is no longer pending. */
  markRunning(id: string, now: number): boolean {
    return this.statements.markRunning.run(now, id).changes === 1;
  }

  setProgress(id: string, progress: number, now: number): void {
    this.statements.progress.run(progress, now, id);
  }

  succeed(id: string, result: unknown, now: number): void {
    this.statements.succeed.run(JSON.stringify(result), now, id);
  }

  fail(id: string, error: JobError, now: number): void {
    this.statements.fail.run(JSON.stringify(error), now, id);
  }

  /** Fails every running job at once: at start, those are the ones a previous process left behind. */
  failAllRunning(error: JobError, now: number): number {
    return this.statements.failAllRunning.run(JSON.stringify(error), now).changes;
  }

  /** Deletes expired jobs; returns how many. */
  purge(now: number): number {
    return this.statements.purge.run(now).changes;
  }

  /** Keeps one client's `keep` most recently finished jobs and deletes its older finished ones. */
  trimFinishedOf(owner: string, keep: number): number {
    return this.statements.trimFinishedOf.run(owner, owner, keep).changes;
  }

  /** trimFinishedOf for every client at once: at start and in maintenance, for a cap lowered across a restart. */
  trimFinished(keep: number): number {
    return this.statements.trimFinished.run(keep).changes;
  }
}

function toView(row: JobRow): JobView {
  return {
    jobId: row.id,
    task: row.task,
    status: row.status,
    progress: row.progress,
    result: row.result === null ? null : (JSON.parse(row.result) as Record<string, unknown>),
    error: row.error === null ? null : (JSON.parse(row.error) as JobError),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
