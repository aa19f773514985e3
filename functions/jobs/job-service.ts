import { randomBytes } from 'node:crypto';
import { ZodError } from 'zod';
import type { JobLimits } from '../config/env.ts';
import { ApiError } from '../http/api-error.ts';
import { logError } from '../log.ts';
import type { Catalog } from '../projects/catalog.ts';
import type { Db } from '../state/database.ts';
import { withStorage } from '../state/storage-errors.ts';
import { parseJobRequest } from './job-request.ts';
import { JobStore, type JobError, type JobView, type QueuedJob } from './job-store.ts';
import { ProgressThrottle } from './progress-throttle.ts';
import { isTaskName, TASKS } from './tasks.ts';

/** The queue's limits (JOB_* in functions/config/env-variables.ts) plus what the tasks read. */
export interface JobServiceDependencies extends JobLimits {
  db: Db;
  catalog: Catalog;
}

/** Who creates a job: the request's mode and the client its shares are counted for. */
export interface JobOwner {
  sandbox: boolean;
  /** The router's quota key: the client IP, or `key:<id>` for a test key. */
  quotaKey: string;
}

/** How often expired jobs are purged (and the queue is checked, in case a start was missed). */
const MAINTENANCE_INTERVAL_MS = 60_000;

/** What a job left running by a previous process ends as: its work died with that process. */
const INTERRUPTED: JobError = {
  code: 'interrupted',
  message: 'The server restarted while this job was running; create it again.',
};

/**
 * createJob and getJobStatus over the `jobs` table, plus the runner that works the queue.
 *
 * The database is the queue: a job is committed as pending before createJob answers, the runner
 * takes the next pending job whenever a slot is free, and every state change is written
 * through. So a restart loses no accepted job: pending ones run on the next start, and running
 * ones, whose work died with the process, are failed as `interrupted` instead of staying running.
 *
 * No client can take the queue from the others: each may have `queuePerClient` jobs waiting and
 * `runningPerClient` running, and keeps its `resultsPerClient` newest finished jobs. Live and
 * sandbox jobs wait in queues of `queueLimit` each, and live jobs start first, so free sandbox
 * traffic never refuses a live job or keeps it waiting behind sandbox jobs that have not started.
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
      this.purge(now);
    } catch (error) {
      // A full or read-only DATA_DIR must not stop the service from starting; maintain() retries the purge.
      logError('job-startup', error);
    }
    // unref: a pending purge must never keep the process alive.
    this.maintenance = setInterval(() => this.maintain(), MAINTENANCE_INTERVAL_MS).unref();
    this.startWaitingJobs();
  }

  /**
   * Checks a task and its input (job-request.ts), stores them as a new job, then starts it if a
   * slot is free; its status is pending or running. Values the createJob handler already checked
   * pass again unchanged: the check is the service's, whoever calls it.
   */
  create(task: unknown, input: unknown, { sandbox, quotaKey: owner }: JobOwner): JobView {
    const request = parseJobRequest({ task, input });
    const id = `job_${randomBytes(16).toString('base64url')}`;
    const now = Date.now();
    withStorage(() =>
      this.deps.db.transaction(() => {
        // The client's own share first: when it is used up, the answer is about this client, not the service.
        const own = this.store.waitingOf(owner, now);
        if (own >= this.deps.queuePerClient) throw tooManyJobs(own, this.deps);
        const waiting = this.store.waiting(sandbox, now);
        if (waiting >= this.deps.queueLimit) throw queueFull(waiting, this.deps.concurrency);
        this.store.insert(
          { id, task: request.task, input: request.input, sandbox, owner },
          now,
          now + this.deps.retentionSeconds * 1000,
        );
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

  /** Fills the free slots with the next runnable jobs (see JobStore.nextRunnable). */
  private startWaitingJobs(): void {
    try {
      while (!this.closed && this.running.size < this.deps.concurrency) {
        const job = this.store.nextRunnable(this.deps.runningPerClient, Date.now());
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
      if (!this.closed) this.finish(job, () => this.store.succeed(job.id, result, Date.now()));
    } catch (error) {
      // After close the database may be gone; the next start fails the job as interrupted.
      if (this.closed) return;
      logError(job.id, error);
      this.finish(job, () => this.store.fail(job.id, taskFailed(error), Date.now()));
    }
  }

  /** Stores how a job ended and, in the same transaction, drops its owner's finished jobs past the cap. */
  private finish(job: QueuedJob, write: () => void): void {
    this.deps.db.transaction(() => {
      write();
      this.store.trimFinishedOf(job.owner, this.deps.resultsPerClient);
    })();
  }

  /** Expired jobs, and finished ones past their owner's cap (the cap may have been lowered since they finished). */
  private purge(now: number): void {
    this.store.purge(now);
    this.store.trimFinished(this.deps.resultsPerClient);
  }

  private maintain(): void {
    try {
      this.purge(Date.now());
    } catch (error) {
      logError('job-purge', error);
    }
    this.startWaitingJobs();
  }
}

/** The error a job shows for a failed run; details stay in the log, as for a 500. */
function taskFailed(error: unknown): JobError {
  const message =
    error instanceof ZodError
      ? 'The task produced a result that does not match its published schema.'
      : 'The task stopped with an unexpected error.';
  return { code: 'task_failed', message: `${message} Create the job again; if it fails again, report its jobId.` };
}

/** Retry-After estimates a second per waiting job and slot: the longest task takes about that long. */
function retryAfterSeconds(waiting: number, slots: number): number {
  return Math.min(60, Math.max(1, Math.ceil(waiting / slots)));
}

function queueFull(waiting: number, concurrency: number): ApiError {
  const seconds = retryAfterSeconds(waiting, concurrency);
  return new ApiError('queue_full', 'Too many jobs are waiting to run.', {
    hint: `Retry after ${seconds} second${seconds === 1 ? '' : 's'}.`,
    headers: { 'retry-after': String(seconds) },
  });
}

/** 429, not 503: the service has room, this client has used its share of it (RFC 6585 section 4). */
function tooManyJobs(waiting: number, { queuePerClient, runningPerClient }: JobLimits): ApiError {
  const seconds = retryAfterSeconds(waiting, runningPerClient);
  return new ApiError(
    'too_many_jobs',
    `This client already has ${waiting} job${waiting === 1 ? '' : 's'} waiting, its whole share of the queue.`,
    {
      hint: `Each client (IP or test key) may have ${queuePerClient} job${queuePerClient === 1 ? '' : 's'} waiting and ${runningPerClient} running. Retry after ${seconds} second${seconds === 1 ? '' : 's'}, once one of yours has started.`,
      headers: { 'retry-after': String(seconds) },
    },
  );
}
