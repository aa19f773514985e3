import type { Pool, PoolClient } from 'pg';
import { StorageUnavailable } from '../../http/storage-unavailable.ts';
import { logWarning } from '../../log/log.ts';
import { SchemaTooNew } from '../schema-too-new.ts';
import type { ConnectionSlots } from '../storage.ts';
import { MIGRATIONS } from './migrations.ts';
import { createPool, type PoolSize } from './pg-driver.ts';
import { withPostgres } from './pg-errors.ts';
import { runMigrations, schemaVersion } from './run-migrations.ts';

/** What the stores use of a pool: a query, or a connection of their own for a transaction. */
export type PgPool = Pick<Pool, 'query' | 'connect'>;

/** The command that brings a database's schema up to date, as the refusal and the log name it. */
const MIGRATE_COMMAND = 'DATABASE_URL=… npm run migrate';

/**
 * The connections of one storage, opened when a store first needs one, never before: an
 * instance that only answers from the build opens none. The first connection of each pool is
 * checked against the schema this code was built for, with a plain SELECT (no migration, no
 * lock: `npm run migrate` migrates; a long-lived server migrates here, once, at start); a database behind it answers every store with
 * StorageUnavailable (503, Retry-After) and one log line naming the command to run, until it is
 * migrated. `release()` closes the open connections, for a host that may freeze the instance
 * between requests; the next query opens new ones.
 */
export class PgConnections implements PgPool {
  private pool: Promise<Pool> | undefined;
  /** Set once the schema was found current: later pools need not ask again. */
  private schemaCurrent = false;
  private warnedBehind = false;

  constructor(
    private readonly url: string,
    private readonly location: string,
    private readonly options: {
      size: PoolSize;
      /** Migrate on the first connection instead of checking (a long-lived server, which migrates at start). */
      migrate: boolean;
      slots?: ConnectionSlots | undefined;
    },
  ) {}

  // Typed as Pool's own query (its overloads), forwarding whichever form the store used.
  readonly query = ((...args: unknown[]) =>
    this.open().then((pool) =>
      (pool.query as (...forwarded: unknown[]) => Promise<unknown>)(...args),
    )) as Pool['query'];

  readonly connect = (() => this.open().then((pool) => pool.connect())) as () => Promise<PoolClient>;

  /** Closes the open connections; the next query opens new ones. */
  async release(): Promise<void> {
    const current = this.pool;
    this.pool = undefined;
    if (current !== undefined) await (await current.catch(() => undefined))?.end();
  }

  private open(): Promise<Pool> {
    const slot = this.options.slots?.current();
    if (slot === undefined)
      return (this.pool ??= this.checkedPool().catch((error: unknown) => {
        this.pool = undefined;
        throw error;
      }));
    let held = slot.get(this) as { pool: Promise<Pool>; close(): Promise<void> } | undefined;
    if (held === undefined) {
      const pool = this.checkedPool({ ...this.options.size, closedByHost: true });
      held = { pool, close: async () => (await pool.catch(() => undefined))?.end() };
      slot.set(this, held);
    }
    return held.pool;
  }

  private async checkedPool(size: PoolSize = this.options.size): Promise<Pool> {
    const pool = await createPool(this.url, size);
    if (this.schemaCurrent) return pool;
    try {
      if (this.options.migrate) await runMigrations(pool, this.location);
      const version = await withPostgres(() => schemaVersion(pool));
      if (version > MIGRATIONS.length) throw new SchemaTooNew(version, MIGRATIONS.length, this.location);
      if (version < MIGRATIONS.length) throw this.behind(version);
      this.schemaCurrent = true;
      return pool;
    } catch (error) {
      await pool.end().catch(() => undefined);
      if (error instanceof SchemaTooNew) throw new StorageUnavailable({ cause: error });
      throw error;
    }
  }

  private behind(version: number): StorageUnavailable {
    const cause = new Error(
      `${this.location} has schema version ${version}; this build needs ${MIGRATIONS.length}: run \`${MIGRATE_COMMAND}\``,
    );
    if (!this.warnedBehind) logWarning(cause.message);
    this.warnedBehind = true;
    return new StorageUnavailable({ cause });
  }
}
