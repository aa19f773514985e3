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
}

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
 * Jobs in the `jobs` table (migration 2). Times are epoch milliseconds; a job whose expires_at
 * has passed reads as absent even before the purge deletes it.
 */
export class JobStore {
  private readonly statements;

  constructor(db: Db) {
    // Prepared once: status reads sit on the request path, progress writes on the runner's.
    this.statements = {
      insert: db.prepare(
        `INSERT INTO jobs (id, sandbox, task, input, status, progress, created_at, updated_at, expires_at)
         VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
      ),
      find: db.prepare(
        'SELECT id, task, status, progress, result, error, created_at, updated_at FROM jobs WHERE id = ? AND sandbox = ? AND expires_at > ?',
      ),
      countByStatus: db.prepare('SELECT COUNT(*) AS n FROM jobs WHERE status = ? AND expires_at > ?'),
      oldestPending: db.prepare("SELECT id, task, input FROM jobs WHERE status = 'pending' AND expires_at > ? ORDER BY created_at, rowid LIMIT 1"),
      markRunning: db.prepare("UPDATE jobs SET status = 'running', updated_at = ? WHERE id = ? AND status = 'pending'"),
      progress: db.prepare("UPDATE jobs SET progress = ?, updated_at = ? WHERE id = ? AND status = 'running'"),
      succeed: db.prepare("UPDATE jobs SET status = 'succeeded', progress = 1, result = ?, updated_at = ? WHERE id = ? AND status = 'running'"),
      fail: db.prepare("UPDATE jobs SET status = 'failed', error = ?, updated_at = ? WHERE id = ? AND status IN ('pending', 'running')"),
      failAllRunning: db.prepare("UPDATE jobs SET status = 'failed', error = ?, updated_at = ? WHERE status = 'running'"),
      purge: db.prepare('DELETE FROM jobs WHERE expires_at <= ?'),
    };
  }

  insert(job: QueuedJob & { sandbox: boolean }, now: number, expiresAt: number): void {
    this.statements.insert.run(job.id, Number(job.sandbox), job.task, JSON.stringify(job.input), now, now, expiresAt);
  }

  /** The job as its own mode (sandbox or production) sees it; other modes and expired jobs get undefined. */
  find(id: string, sandbox: boolean, now: number): JobView | undefined {
    const row = this.statements.find.get(id, Number(sandbox), now) as JobRow | undefined;
    return row === undefined ? undefined : toView(row);
  }

  count(status: JobStatus, now: number): number {
    return (this.statements.countByStatus.get(status, now) as { n: number }).n;
  }

  /** The job that has waited longest, if any. */
  oldestPending(now: number): QueuedJob | undefined {
    const row = this.statements.oldestPending.get(now) as { id: string; task: string; input: string } | undefined;
    return row === undefined ? undefined : { id: row.id, task: row.task, input: JSON.parse(row.input) as unknown };
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
