import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ZodError } from 'zod';
import type { JobLimits } from '../config/env.ts';
import { JOB_MAX_ATTEMPTS } from '../config/fixed-limits.ts';
import { ApiError } from '../http/api-error.ts';
import { logError, logEvent } from '../log/log.ts';
import type { Catalog } from '../projects/catalog.ts';
import { parseJobRequest } from './job-request.ts';
import type { ClaimedJob, JobError, JobOutcome, JobStore, JobView } from './job-store.ts';
import { ProgressThrottle } from './progress-throttle.ts';
import { isTaskName, TASKS } from './tasks.ts';

/** The queue's limits (JOB_* in functions/config/env-variables.ts) plus what the tasks read. */
export interface JobServiceDependencies extends JobLimits {
  store: JobStore;
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

/** What a job ends as when every instance that ran it died before finishing it. */
const INTERRUPTED: JobError = {
  code: 'interrupted',
  message: 'The server running this job stopped before it finished; create it again.',
};

/**
 * createJob and getJobStatus over the JobStore, plus the worker that runs this instance's share
 * of the queue.
 *
 * The store is the queue: a job is committed as pending before createJob answers, and any
 * instance sharing the store may claim it when it has a free slot. A claim is a lease that the
 * worker renews while the job runs; a job whose worker died (kill -9, a lost machine) is claimed
 * again once its lease has passed, by whichever instance's reaper sees it first, and failed as
 * `interrupted` after JOB_MAX_ATTEMPTS runs. So no accepted job is lost, and a restart of one
 * instance never touches the jobs another is running. On SQLite, where one process owns the
 * store, the jobs a previous run of the process left running are failed at start.
 *
 * No client can take the queue from the others: each may have `queuePerClient` jobs waiting and
 * `runningPerClient` running, and keeps its `resultsPerClient` newest finished jobs. Live and
 * sandbox jobs wait in queues of `queueLimit` each, and live jobs start first, so free sandbox
 * traffic never refuses a live job or keeps it waiting behind sandbox jobs that have not started.
 */
export class JobService {
  private readonly store: JobStore;
  /** This worker's name in the store's claims: unique per process, even across restarts with one pid. */
  private readonly worker = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly running = new Map<string, AbortController>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** Fills run one after another, each looking at the queue as it is when it starts. */
  private fills: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(private readonly deps: JobServiceDependencies) {
    this.store = deps.store;
  }

  /** Recovers what a previous run left, then starts working the queue. */
  static async start(deps: JobServiceDependencies): Promise<JobService> {
    const service = new JobService(deps);
    try {
      await service.store.recoverAtStart(INTERRUPTED, Date.now());
      await service.store.purge(deps.resultsPerClient, Date.now());
    } catch (error) {
      // Storage that cannot be written now must not stop the service from starting; maintenance retries.
      logError('job-startup', error);
    }
    // unref: pending maintenance must never keep the process alive.
    service.timers.push(
      setInterval(() => void service.maintain(), MAINTENANCE_INTERVAL_MS).unref(),
      setInterval(() => void service.reap(), service.reapIntervalMs()).unref(),
    );
    await service.startWaitingJobs();
    return service;
  }

  /**
   * Checks a task and its input (job-request.ts), stores them as a new job, then starts it if a
   * slot is free; its status is pending or running. Values the createJob handler already checked
   * pass again unchanged: the check is the service's, whoever calls it.
   */
  async create(task: unknown, input: unknown, { sandbox, quotaKey: owner }: JobOwner): Promise<JobView> {
    const request = parseJobRequest({ task, input });
    const id = `job_${randomBytes(16).toString('base64url')}`;
    const now = Date.now();
    const outcome = await this.store.enqueue(
      { id, task: request.task, input: request.input, sandbox, owner },
      this.deps,
      now,
      now + this.deps.retentionSeconds * 1000,
    );
    if (!outcome.queued)
      throw outcome.full === 'client'
        ? tooManyJobs(outcome.waiting, this.deps)
        : queueFull(outcome.waiting, this.deps.concurrency);
    // Started before answering when a slot is free, so the answer says running; it is the job as
    // it was then (a quick task may have finished since, which the first poll shows).
    const started = await this.startWaitingJobs();
    const created = new Date(now).toISOString();
    return {
      jobId: id,
      task: request.task,
      status: started.includes(id) ? 'running' : 'pending',
      progress: 0,
      result: null,
      error: null,
      createdAt: created,
      updatedAt: created,
    };
  }

  /** The job as the caller's mode sees it. */
  get(jobId: string, sandbox: boolean): Promise<JobView | undefined> {
    return this.store.find(jobId, sandbox, Date.now());
  }

  /** Several jobs as of one instant (a batch). */
  getMany(jobIds: readonly string[], sandbox: boolean): Promise<Map<string, JobView>> {
    return this.store.findMany(jobIds, sandbox, Date.now());
  }

  /** Stops claiming jobs and asks running ones to stop; their leases run out for another instance (or the next start). */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const controller of this.running.values()) controller.abort();
  }

  private get leaseMs(): number {
    return this.deps.leaseSeconds * 1000;
  }

  /** The reaper looks twice per lease, so a dead worker's job waits at most one and a half leases. */
  private reapIntervalMs(): number {
    return Math.max(500, this.leaseMs / 2);
  }

  /** Fills the free slots with the next runnable jobs (see JobStore.claimNext); resolves with the ids it started. */
  private startWaitingJobs(): Promise<readonly string[]> {
    const fill = this.fills.then(() => this.fill());
    this.fills = fill.then(() => undefined);
    return fill;
  }

  private async fill(): Promise<string[]> {
    const started: string[] = [];
    try {
      while (!this.closed && this.running.size < this.deps.concurrency) {
        const job = await this.store.claimNext(this.worker, this.deps, this.leaseMs, Date.now());
        // Closed while claiming: the lease runs out and another instance (or the next start) sees to it.
        if (job === undefined || this.closed) break;
        started.push(job.id);
        const controller = new AbortController();
        this.running.set(job.id, controller);
        void this.run(job, controller)
          .catch((error: unknown) => logError(job.id, error))
          .finally(() => {
            this.running.delete(job.id);
            void this.startWaitingJobs();
          });
      }
    } catch (error) {
      // The job is stored either way; the maintenance timer tries again.
      logError('job-runner', error);
    }
    return started;
  }

  private async run(job: ClaimedJob, controller: AbortController): Promise<void> {
    const heartbeat = setInterval(() => void this.renew(job, controller), this.leaseMs / 3).unref();
    const throttle = new ProgressThrottle((progress) => {
      if (!this.closed)
        this.store
          .setProgress(job.id, this.worker, progress, Date.now())
          .catch((error: unknown) => logError(job.id, error));
    });
    let outcome: JobOutcome;
    try {
      if (!isTaskName(job.task)) throw new Error(`No task named ${job.task} is registered`);
      const result = await TASKS[job.task].execute(job.input, {
        catalog: this.deps.catalog,
        reportProgress: (fraction) => throttle.report(fraction),
        signal: controller.signal,
      });
      outcome = { result };
    } catch (error) {
      // Stopped by close() or a lost lease: whoever holds the job now (or the next start) decides its end.
      if (controller.signal.aborted) return;
      logError(job.id, error);
      outcome = { error: taskFailed(error) };
    } finally {
      clearInterval(heartbeat);
    }
    if (this.closed || controller.signal.aborted) return;
    const written = await this.store.finish(job.id, this.worker, outcome, this.deps.resultsPerClient, Date.now());
    if (!written)
      logEvent('job result dropped: its lease had passed and another instance took it over', { jobId: job.id });
  }

  /** The heartbeat: keeps the lease, or stops the run when it was lost (this instance stalled past it). */
  private async renew(job: ClaimedJob, controller: AbortController): Promise<void> {
    try {
      if (!(await this.store.renewLease(job.id, this.worker, this.leaseMs, Date.now()))) controller.abort();
    } catch (error) {
      // Storage down: the run goes on; its finish is fenced if the lease passes meanwhile.
      logError(job.id, error);
    }
  }

  /** Gives the jobs of dead workers to the queue again (or fails them), then fills free slots with them. */
  private async reap(): Promise<void> {
    try {
      if ((await this.store.reapExpired(JOB_MAX_ATTEMPTS, INTERRUPTED, Date.now())) > 0) await this.startWaitingJobs();
    } catch (error) {
      logError('job-reaper', error);
    }
  }

  private async maintain(): Promise<void> {
    try {
      await this.store.purge(this.deps.resultsPerClient, Date.now());
    } catch (error) {
      logError('job-purge', error);
    }
    await this.startWaitingJobs();
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
