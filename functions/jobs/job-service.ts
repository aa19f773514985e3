import { randomBytes } from 'node:crypto';
import { ZodError } from 'zod';
import { ApiError } from '../http/api-error.ts';
import { logError } from '../log.ts';
import type { Catalog } from '../projects/catalog.ts';
import type { Db } from '../state/database.ts';
import { withStorage } from '../state/storage-errors.ts';
import { invalidInput, taskNameOf } from './job-request.ts';
import { JobStore, type JobError, type JobView, type QueuedJob } from './job-store.ts';
import { ProgressThrottle } from './progress-throttle.ts';
import { isTaskName, TASKS } from './tasks.ts';

export interface JobServiceDependencies {
  db: Db;
  catalog: Catalog;
  /** Jobs that run at the same time. */
  concurrency: number;
  /** Jobs that may wait beyond those running. */
  queueLimit: number;
  /** How long a job and its result are kept after creation. */
  retentionSeconds: number;
}

/** How often expired jobs are purged (and the queue is checked, in case a start was missed). */
const MAINTENANCE_INTERVAL_MS = 60_000;

/** What a job left running by a previous process ends as: its work died with that process. */
export const INTERRUPTED: JobError = {
  code: 'interrupted',
  message: 'The server restarted while this job was running; create it again.',
};

/**
 * createJob and getJobStatus over the `jobs` table, plus the runner that works the queue.
 *
 * The database is the queue: a job is committed as pending before createJob answers, the runner
 * takes the oldest pending job whenever a slot is free, and every state change is written
 * through. So a restart loses no accepted job: pending ones run on the next start, and running
 * ones, whose work died with the process, are failed as `interrupted` instead of staying running.
 */
export class JobService {
  private readonly store: JobStore;
  private readonly running = new Map<string, AbortController>();
  private readonly maintenance: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly deps: JobServiceDependencies) {
    this.store = new JobStore(deps.db);
    const now = Date.now();
    try {
      this.store.failAllRunning(INTERRUPTED, now);
      this.store.purge(now);
    } catch (error) {
      // A full or read-only DATA_DIR must not stop the service from starting; maintain() retries the purge.
      logError('job-startup', error);
    }
    // unref: a pending purge must never keep the process alive.
    this.maintenance = setInterval(() => this.maintain(), MAINTENANCE_INTERVAL_MS).unref();
    this.startWaitingJobs();
  }

  /** Validates and stores a new job, then starts it if a slot is free; its status is pending or running. */
  create(task: unknown, input: unknown, sandbox: boolean): JobView {
    const name = taskNameOf(task);
    const parsed = TASKS[name].input.safeParse(input);
    if (!parsed.success) throw invalidInput(name, parsed.error);
    const id = `job_${randomBytes(16).toString('base64url')}`;
    const now = Date.now();
    withStorage(() =>
      this.deps.db.transaction(() => {
        const pending = this.store.count('pending', now);
        const active = pending + this.store.count('running', now);
        if (active >= this.deps.concurrency + this.deps.queueLimit) throw queueFull(pending, this.deps.concurrency);
        this.store.insert({ id, task: name, input: parsed.data, sandbox }, now, now + this.deps.retentionSeconds * 1000);
      })(),
    );
    this.startWaitingJobs();
    const view = this.get(id, sandbox);
    if (view === undefined) throw new Error(`Job ${id} was stored but cannot be read back`);
    return view;
  }

  /** The job as the caller's mode sees it; synchronous, so a batch can call it inside a transaction. */
  get(jobId: string, sandbox: boolean): JobView | undefined {
    return withStorage(() => this.store.find(jobId, sandbox, Date.now()));
  }

  /** Stops starting jobs and asks running ones to stop; what they leave running is failed on the next start. */
  close(): void {
    this.closed = true;
    clearInterval(this.maintenance);
    for (const controller of this.running.values()) controller.abort();
  }

  /** Fills the free slots with the oldest pending jobs. */
  private startWaitingJobs(): void {
    try {
      while (!this.closed && this.running.size < this.deps.concurrency) {
        const job = this.store.oldestPending(Date.now());
        if (job === undefined) return;
        if (!this.store.markRunning(job.id, Date.now())) continue;
        const controller = new AbortController();
        this.running.set(job.id, controller);
        void this.run(job, controller.signal)
          .catch((error: unknown) => logError(job.id, error))
          .finally(() => {
            this.running.delete(job.id);
            this.startWaitingJobs();
          });
      }
    } catch (error) {
      // The job is stored either way; the maintenance timer tries again.
      logError('job-runner', error);
    }
  }

  private async run(job: QueuedJob, signal: AbortSignal): Promise<void> {
    const throttle = new ProgressThrottle((progress) => {
      if (!this.closed) this.store.setProgress(job.id, progress, Date.now());
    });
    try {
      if (!isTaskName(job.task)) throw new Error(`No task named ${job.task} is registered`);
      const result = await TASKS[job.task].execute(job.input, {
        catalog: this.deps.catalog,
        reportProgress: (fraction) => throttle.report(fraction),
        signal,
      });
      if (!this.closed) this.store.succeed(job.id, result, Date.now());
    } catch (error) {
      // After close the database may be gone; the next start fails the job as interrupted.
      if (this.closed) return;
      logError(job.id, error);
      this.store.fail(job.id, taskFailed(error), Date.now());
    }
  }

  private maintain(): void {
    try {
      this.store.purge(Date.now());
    } catch (error) {
      logError('job-purge', error);
    }
    this.startWaitingJobs();
  }
}

/** The error a job shows for a failed run; details stay in the log, as for a 500. */
function taskFailed(error: unknown): JobError {
  const message =
    error instanceof ZodError ? 'The task produced a result that does not match its published schema.' : 'The task stopped with an unexpected error.';
  return { code: 'task_failed', message: `${message} Create the job again; if it fails again, report its jobId.` };
}

/** Retry-After estimates a second per waiting job and slot: the longest task takes about that long. */
function queueFull(pending: number, concurrency: number): ApiError {
  const seconds = Math.min(60, Math.max(1, Math.ceil(pending / concurrency)));
  return new ApiError('queue_full', 'Too many jobs are waiting to run.', {
    hint: `Retry after ${seconds} second${seconds === 1 ? '' : 's'}.`,
    headers: { 'retry-after': String(seconds) },
  });
}
