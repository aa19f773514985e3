import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ZodError } from 'zod';
import type { JobLimits } from '../config/env.ts';
import { JOB_MAX_ATTEMPTS } from '../config/fixed-limits.ts';
import { logError, logEvent } from '../log/log.ts';
import type { Catalog } from '../projects/catalog.ts';
import type { ClaimedJob, JobError, JobOutcome, JobStore } from './job-store.ts';
import { ProgressThrottle } from './progress-throttle.ts';
import { isTaskName, TASKS } from './tasks.ts';

/** The queue's limits (JOB_* in functions/config/env-variables.ts) plus what the tasks read. */
export interface JobServiceDependencies extends JobLimits {
  store: JobStore;
  catalog: Catalog;
}

/** How often expired jobs are purged (and the queue is checked, in case a start was missed). */
const MAINTENANCE_INTERVAL_MS = 60_000;

/** What a job ends as when every instance that ran it died before finishing it. */
const INTERRUPTED: JobError = {
  code: 'interrupted',
  message: 'The server running this job stopped before it finished; create it again.',
};

/**
 * The worker that runs this instance's share of the queue the JobStore holds.
 *
 * Any instance sharing the store may claim a pending job when it has a free slot. A claim is a
 * lease that the worker renews while the job runs; a job whose worker died (kill -9, a lost
 * machine) is claimed again once its lease has passed, by whichever instance's reaper sees it
 * first, and failed as `interrupted` after JOB_MAX_ATTEMPTS runs. So no accepted job is lost, and
 * a restart of one instance never touches the jobs another is running. On SQLite, where one
 * process owns the store, the jobs a previous run of the process left running are failed at start.
 */
export class JobWorker {
  private readonly store: JobStore;
  /** This worker's name in the store's claims: unique per process, even across restarts with one pid. */
  private readonly worker = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly running = new Map<string, AbortController>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** Fills run one after another, each looking at the queue as it is when it starts. */
  private fills: Promise<void> = Promise.resolve();
  private closed = false;
  /** The runs under way, so a pass can wait for the jobs it started. */
  private readonly runs = new Set<Promise<void>>();

  /**
   * `refill`: a finished job frees its slot for the next one at once (a long-lived server); off,
   * only a pass or a create fills slots, so one pass runs a bounded number of jobs.
   */
  private constructor(
    private readonly deps: JobServiceDependencies,
    private readonly refill = true,
  ) {
    this.store = deps.store;
  }

  /**
   * A worker with no timer of its own, for hosts that keep nothing running between requests:
   * the queue is worked only by `runPass`, from `waitUntil` after a job is created or from a
   * scheduled run. Nothing is recovered at start: on the shared engine, the reaper (in each pass)
   * sees to the jobs of instances that died.
   */
  static open(deps: JobServiceDependencies): JobWorker {
    return new JobWorker(deps, false);
  }

  /**
   * One bounded pass: gives the jobs of dead workers back to the queue, purges expired ones,
   * fills the free slots (at most `concurrency` jobs) and waits until those runs end. It never
   * rejects: a failure is logged and the next pass tries again.
   */
  async runPass(): Promise<{ reaped: number; started: number }> {
    let reaped = 0;
    try {
      reaped = await this.store.reapExpired(JOB_MAX_ATTEMPTS, INTERRUPTED, Date.now());
    } catch (error) {
      logError('job-reaper', error);
    }
    try {
      await this.store.purge(this.deps.resultsPerClient, Date.now());
    } catch (error) {
      logError('job-purge', error);
    }
    const started = await this.startWaitingJobs();
    await Promise.all([...this.runs]);
    return { reaped, started: started.length };
  }

  /** Recovers what a previous run left, then starts working the queue. */
  static async start(deps: JobServiceDependencies): Promise<JobWorker> {
    const worker = new JobWorker(deps);
    try {
      await worker.store.recoverAtStart(INTERRUPTED, Date.now());
      await worker.store.purge(deps.resultsPerClient, Date.now());
    } catch (error) {
      // Storage that cannot be written now must not stop the service from starting; maintenance retries.
      logError('job-startup', error);
    }
    // unref: pending maintenance must never keep the process alive.
    worker.timers.push(
      setInterval(() => void worker.maintain(), MAINTENANCE_INTERVAL_MS).unref(),
      setInterval(() => void worker.reap(), worker.reapIntervalMs()).unref(),
    );
    await worker.startWaitingJobs();
    return worker;
  }

  /** Fills the free slots with the next runnable jobs (see JobStore.claimNext); resolves with the ids it started. */
  startWaitingJobs(): Promise<readonly string[]> {
    const fill = this.fills.then(() => this.fill());
    this.fills = fill.then(() => undefined);
    return fill;
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
        const run = this.run(job, controller)
          .catch((error: unknown) => logError(job.id, error))
          .finally(() => {
            this.running.delete(job.id);
            this.runs.delete(run);
            if (this.refill) void this.startWaitingJobs();
          });
        this.runs.add(run);
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
