export type JobStatus = 'pending' | 'running' | 'succeeded' | 'failed';

/** Every code a failed job's `error.code` can take, with its meaning: the one list the docs read. */
export const JOB_ERROR_CODES = {
  task_failed: 'The task stopped with an error or produced a result outside its schema; create the job again.',
  interrupted:
    'The server running the job stopped (a restart or a crash) and the job could not be finished elsewhere; create it again.',
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
interface QueuedJob {
  id: string;
  task: string;
  /** The validated input, as stored. */
  input: unknown;
  /** The client that created it: the router's quota key (its IP, or `key:<id>` for a test key). */
  owner: string;
}

export interface NewJob extends QueuedJob {
  sandbox: boolean;
}

/** The queue's shares, checked and taken in one step with the insert (see JobStore.enqueue). */
export interface QueueShares {
  /** Jobs one client may have waiting, in either mode. */
  queuePerClient: number;
  /** Jobs that may wait in one mode's queue (live and sandbox jobs wait apart). */
  queueLimit: number;
}

/** Why enqueue refused a job, and how many were waiting in the queue that was full. */
export type EnqueueOutcome = { queued: true } | { queued: false; full: 'client' | 'queue'; waiting: number };

/** How many jobs may run: in the whole service, and per client. */
export interface RunShares {
  concurrency: number;
  runningPerClient: number;
}

/** A job a worker claimed: it runs it until its lease passes, renewing the lease as it goes. */
export interface ClaimedJob extends QueuedJob {
  /** 1 on the first run; a job taken over from a worker that died runs again with the next attempt. */
  attempt: number;
}

/** How a run ended: a result (succeeded) or an error (failed). */
export type JobOutcome = { result: unknown } | { error: JobError };

/**
 * The job queue, durable: the store is the queue, so an accepted job survives restarts and any
 * instance sharing the store may run it. Times are epoch milliseconds; a job whose expiry has
 * passed reads as absent even before the purge deletes it. Each engine implements it once.
 *
 * Running jobs are leased to a worker (one per process): the worker renews the lease while it
 * runs the job, and its writes count only while the lease is its own (a fenced finish), so a
 * worker that paused past its lease cannot overwrite the result of the worker that took over.
 */
export interface JobStore {
  /** Stores a pending job unless the client's share or the mode's queue is full, atomically across instances. */
  enqueue(job: NewJob, shares: QueueShares, now: number, expiresAt: number): Promise<EnqueueOutcome>;
  /** The job as its own mode (sandbox or production) sees it; other modes and expired jobs get undefined. */
  find(id: string, sandbox: boolean, now: number): Promise<JobView | undefined>;
  /** Several jobs read at one instant (a batch sees one state); absent ids are missing from the map. */
  findMany(ids: readonly string[], sandbox: boolean, now: number): Promise<Map<string, JobView>>;
  /**
   * Claims the next runnable job for `worker`: live before sandbox, then the one that has waited
   * longest, skipping clients that already run their share, and none while the whole service
   * runs `concurrency` jobs. Two workers never claim the same job.
   */
  claimNext(worker: string, shares: RunShares, leaseMs: number, now: number): Promise<ClaimedJob | undefined>;
  /** Extends the lease; false when the job is no longer this worker's (taken over, or expired). */
  renewLease(id: string, worker: string, leaseMs: number, now: number): Promise<boolean>;
  /**
   * Progress of a job this worker holds; ignored when it no longer does, and when below what is
   * stored: the worker sends its reports without waiting, and on a pool two can land out of order.
   */
  setProgress(id: string, worker: string, progress: number, now: number): Promise<void>;
  /**
   * Stores how the worker's run ended, fenced: only while the job is still running under this
   * worker's claim. In the same transaction the owner's finished jobs past `resultsPerClient` are
   * deleted. False when the claim was lost and nothing was written.
   */
  finish(id: string, worker: string, outcome: JobOutcome, resultsPerClient: number, now: number): Promise<boolean>;
  /**
   * Jobs whose lease passed (their worker died): back to pending for another worker, or failed
   * with `error` once they have run `maxAttempts` times. Returns how many were touched.
   */
  reapExpired(maxAttempts: number, error: JobError, now: number): Promise<number>;
  /**
   * At a worker's start: jobs that only a previous run of this same process could have been
   * running. SQLite has one process per DATA_DIR, so every running job there died with it and is
   * failed with `error`; PostgreSQL leaves them to the reaper, as other instances may be running them.
   */
  recoverAtStart(error: JobError, now: number): Promise<number>;
  /** Deletes expired jobs, and finished ones past each client's `resultsPerClient` newest. */
  purge(resultsPerClient: number, now: number): Promise<number>;
}
