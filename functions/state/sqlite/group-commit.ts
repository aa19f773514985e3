import { withStorage } from './sqlite-errors.ts';
import type { Db } from './database.ts';

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  outcome?: { value: unknown } | { error: unknown };
}

/**
 * Group commit: the writes asked for within one turn of the event loop run in one transaction,
 * each in a savepoint of its own, and each promise settles only after that transaction has
 * committed. A commit is the dear part of a small write in SQLite (with WAL, appending the
 * transaction's pages to the log), so concurrent requests share one instead of paying for one
 * each; nothing is acknowledged earlier than before, and the durability is the database's own
 * (functions/state/sqlite/database.ts).
 *
 * A write that throws rolls back its own savepoint and rejects alone; the others go on. If the
 * transaction itself is lost (SQLite rolls a whole transaction back on some errors, such as a
 * full disk, https://www.sqlite.org/lang_transaction.html, "Response To Errors Within A
 * Transaction") or the commit fails, every write of the group rejects with that error: none of
 * them is stored. A failure of the disk comes as StorageUnavailable, as from any store.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private readonly inSavepoint: (work: () => unknown) => unknown;
  private readonly group: (queue: Pending[]) => void;

  constructor(private readonly db: Db) {
    // Called inside `group`'s transaction, better-sqlite3 makes this a SAVEPOINT ... RELEASE.
    this.inSavepoint = db.transaction((work: () => unknown) => work());
    this.group = db.transaction((queue: Pending[]) => {
      for (const pending of queue) {
        try {
          pending.outcome = { value: withStorage(() => this.inSavepoint(pending.work)) };
        } catch (error) {
          if (!db.inTransaction) throw error;
          pending.outcome = { error };
        }
      }
    });
  }

  /** Runs `work` (synchronous database calls) in the next group; resolves once it is committed. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.queue.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Commits what is queued now (also called before the database closes). */
  flush(): void {
    const queue = this.queue;
    if (queue.length === 0) return;
    this.queue = [];
    try {
      withStorage(() => this.group(queue));
    } catch (error) {
      for (const pending of queue) pending.reject(error);
      return;
    }
    for (const { outcome, resolve, reject } of queue) {
      if (outcome !== undefined && 'value' in outcome) resolve(outcome.value);
      else reject(outcome?.error);
    }
  }
}
