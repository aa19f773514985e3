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
import { withStorage } from './sqlite-errors.ts';
import type { Db } from './database.ts';
import { JOB_COLUMNS, toJobView, type JobRow } from '../job-row.ts';

/** A finished job is one whose result (or error) is stored: what the per-client cap counts. */
const FINISHED = "status IN ('succeeded', 'failed')";

/** The job queue in SQLite (migrations 2 to 4). One process owns DATA_DIR, so it is the only worker. */
export class SqliteJobStore implements JobStore {
  private readonly statements;

  constructor(private readonly db: Db) {
    // Prepared once: status reads sit on the request path, progress writes on the runner's.
    this.statements = {
      insert: db.prepare(
        `INSERT INTO jobs (id, sandbox, owner, task, input, status, progress, created_at, updated_at, expires_at)
         VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
      ),
      find: db.prepare(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ? AND sandbox = ? AND expires_at > ?`),
      waiting: db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status = 'pending' AND sandbox = ? AND expires_at > ?"),
      waitingOf: db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE owner = ? AND status = 'pending' AND expires_at > ?"),
      running: db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status = 'running'"),
      // Live jobs first (sandbox = 0 sorts first), then the oldest; a client already running its share waits its turn.
      claimNext: db.prepare(
        `UPDATE jobs SET status = 'running', locked_by = ?, lease_until = ?, attempts = attempts + 1, updated_at = ?
         WHERE id = (SELECT id FROM jobs AS waiting
           WHERE status = 'pending' AND expires_at > ?
             AND (SELECT COUNT(*) FROM jobs AS running WHERE running.owner = waiting.owner AND running.status = 'running') < ?
           ORDER BY sandbox, created_at, rowid LIMIT 1)
         RETURNING id, task, input, owner, attempts`,
      ),
      renew: db.prepare("UPDATE jobs SET lease_until = ? WHERE id = ? AND locked_by = ? AND status = 'running'"),
      progress: db.prepare(
        "UPDATE jobs SET progress = MAX(progress, ?), updated_at = ? WHERE id = ? AND locked_by = ? AND status = 'running'",
      ),
      succeed: db.prepare(
        "UPDATE jobs SET status = 'succeeded', progress = 1, result = ?, updated_at = ?, locked_by = NULL, lease_until = NULL WHERE id = ? AND locked_by = ? AND status = 'running'",
      ),
      fail: db.prepare(
        "UPDATE jobs SET status = 'failed', error = ?, updated_at = ?, locked_by = NULL, lease_until = NULL WHERE id = ? AND locked_by = ? AND status = 'running'",
      ),
      ownerOf: db.prepare('SELECT owner FROM jobs WHERE id = ?'),
      requeueExpired: db.prepare(
        "UPDATE jobs SET status = 'pending', progress = 0, locked_by = NULL, lease_until = NULL, updated_at = ? WHERE status = 'running' AND lease_until < ? AND attempts < ?",
      ),
      failExpired: db.prepare(
        "UPDATE jobs SET status = 'failed', error = ?, locked_by = NULL, lease_until = NULL, updated_at = ? WHERE status = 'running' AND lease_until < ?",
      ),
      failAllRunning: db.prepare(
        "UPDATE jobs SET status = 'failed', error = ?, locked_by = NULL, lease_until = NULL, updated_at = ? WHERE status = 'running'",
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

  async enqueue(job: NewJob, shares: QueueShares, now: number, expiresAt: number): Promise<EnqueueOutcome> {
    return withStorage(() =>
      this.db.transaction((): EnqueueOutcome => {
        // The client's own share first: when it is used up, the answer is about this client, not the service.
        const own = (this.statements.waitingOf.get(job.owner, now) as { n: number }).n;
        if (own >= shares.queuePerClient) return { queued: false, full: 'client', waiting: own };
        const waiting = (this.statements.waiting.get(Number(job.sandbox), now) as { n: number }).n;
        if (waiting >= shares.queueLimit) return { queued: false, full: 'queue', waiting };
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
        return { queued: true };
      })(),
    );
  }

  async find(id: string, sandbox: boolean, now: number): Promise<JobView | undefined> {
    const row = withStorage(() => this.statements.find.get(id, Number(sandbox), now) as JobRow | undefined);
    return row === undefined ? undefined : toJobView(row);
  }

  /** One read transaction: every job as of one instant. */
  async findMany(ids: readonly string[], sandbox: boolean, now: number): Promise<Map<string, JobView>> {
    return withStorage(() =>
      this.db.transaction(() => {
        const found = new Map<string, JobView>();
        for (const id of ids) {
          const row = this.statements.find.get(id, Number(sandbox), now) as JobRow | undefined;
          if (row !== undefined) found.set(id, toJobView(row));
        }
        return found;
      })(),
    );
  }

  async claimNext(worker: string, shares: RunShares, leaseMs: number, now: number): Promise<ClaimedJob | undefined> {
    return withStorage(() =>
      this.db.transaction(() => {
        if ((this.statements.running.get() as { n: number }).n >= shares.concurrency) return undefined;
        const row = this.statements.claimNext.get(worker, now + leaseMs, now, now, shares.runningPerClient) as
          { id: string; task: string; input: string; owner: string; attempts: number } | undefined;
        return row === undefined
          ? undefined
          : {
              id: row.id,
              task: row.task,
              input: JSON.parse(row.input) as unknown,
              owner: row.owner,
              attempt: row.attempts,
            };
      })(),
    );
  }

  async renewLease(id: string, worker: string, leaseMs: number, now: number): Promise<boolean> {
    return withStorage(() => this.statements.renew.run(now + leaseMs, id, worker).changes === 1);
  }

  async setProgress(id: string, worker: string, progress: number, now: number): Promise<void> {
    withStorage(() => this.statements.progress.run(progress, now, id, worker));
  }

  async finish(
    id: string,
    worker: string,
    outcome: JobOutcome,
    resultsPerClient: number,
    now: number,
  ): Promise<boolean> {
    return withStorage(() =>
      this.db.transaction(() => {
        const written =
          'result' in outcome
            ? this.statements.succeed.run(JSON.stringify(outcome.result), now, id, worker)
            : this.statements.fail.run(JSON.stringify(outcome.error), now, id, worker);
        if (written.changes === 0) return false;
        const { owner } = this.statements.ownerOf.get(id) as { owner: string };
        this.statements.trimFinishedOf.run(owner, owner, resultsPerClient);
        return true;
      })(),
    );
  }

  async reapExpired(maxAttempts: number, error: JobError, now: number): Promise<number> {
    return withStorage(() =>
      this.db.transaction(
        () =>
          this.statements.requeueExpired.run(now, now, maxAttempts).changes +
          this.statements.failExpired.run(JSON.stringify(error), now, now).changes,
      )(),
    );
  }

  async recoverAtStart(error: JobError, now: number): Promise<number> {
    return withStorage(() => this.statements.failAllRunning.run(JSON.stringify(error), now).changes);
  }

  async purge(resultsPerClient: number, now: number): Promise<number> {
    return withStorage(
      () => this.statements.purge.run(now).changes + this.statements.trimFinished.run(resultsPerClient).changes,
    );
  }
}
