import { randomBytes } from 'node:crypto';
import type { JobLimits } from '../config/env.ts';
import { ApiError } from '../http/api-error.ts';
import { parseJobRequest } from './job-request.ts';
import { JobWorker, type JobServiceDependencies } from './job-worker.ts';
import type { JobStore, JobView } from './job-store.ts';

/** Who creates a job: the request's mode and the client its shares are counted for. */
export interface JobOwner {
  sandbox: boolean;
  /** The router's quota key: the client IP, or `key:<id>` for a test key. */
  quotaKey: string;
}

/**
 * createJob and getJobStatus over the JobStore; the worker that runs the queue is job-worker.ts.
 *
 * The store is the queue: a job is committed as pending before createJob answers, and any
 * instance sharing the store may claim it when it has a free slot, so a job accepted here is run
 * even if this instance dies (see JobWorker).
 *
 * No client can take the queue from the others: each may have `queuePerClient` jobs waiting and
 * `runningPerClient` running, and keeps its `resultsPerClient` newest finished jobs. Live and
 * sandbox jobs wait in queues of `queueLimit` each, and live jobs start first, so free sandbox
 * traffic never refuses a live job or keeps it waiting behind sandbox jobs that have not started.
 */
export class JobService {
  private readonly store: JobStore;

  /** `onQueued` is set for a worker without timers: a new job is then left for its next pass. */
  private constructor(
    private readonly deps: JobServiceDependencies,
    private readonly worker: JobWorker,
    private readonly onQueued?: () => void,
  ) {
    this.store = deps.store;
  }

  /** Recovers what a previous run left and starts this instance's worker on the queue. */
  static async start(deps: JobServiceDependencies): Promise<JobService> {
    return new JobService(deps, await JobWorker.start(deps));
  }

  /**
   * For hosts that keep nothing running between requests: a job is stored as pending and
   * `onQueued` says so (the host may then run a pass through `waitUntil`); the queue is worked
   * only by `runPass` (JobWorker.open).
   */
  static open(deps: JobServiceDependencies, onQueued: () => void): JobService {
    return new JobService(deps, JobWorker.open(deps), onQueued);
  }

  /** One bounded pass of the worker: the reaper, the purge, and the jobs that fit the free slots (JobWorker.runPass). */
  runPass(): Promise<{ reaped: number; started: number }> {
    return this.worker.runPass();
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
    let started: readonly string[] = [];
    if (this.onQueued === undefined) started = await this.worker.startWaitingJobs();
    else this.onQueued();
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

  /** Stops this instance's worker (job-worker.ts); the stored jobs stay for another instance or the next start. */
  close(): void {
    this.worker.close();
  }
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
