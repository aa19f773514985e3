import type { Pool, TypeOverrides, types } from 'pg';
import { logDebug, logError } from '../../log/log.ts';

interface PgDriver {
  Pool: typeof Pool;
  TypeOverrides: typeof TypeOverrides;
  types: typeof types;
}

/**
 * The driver, loaded only when DATABASE_URL selects this engine: an instance on the embedded
 * engine never loads it. The server bundle leaves it out (read from node_modules at run time);
 * a function bundle carries it, since esbuild bundles what a dynamic import names.
 */
async function driver(): Promise<PgDriver> {
  const pg = (await import('pg')) as PgDriver & { default?: PgDriver };
  // pg is CommonJS: Node.js gives its exports as the default export (and as named ones where it can tell).
  return pg.default ?? pg;
}

/** The longest a statement may run before it is cancelled (or, through a pooler, abandoned). */
const STATEMENT_TIMEOUT_MS = 10_000;

/** PostgreSQL's type oid of BIGINT (int8): every time column, the ids and COUNT(*). */
const INT8_OID = 20;

/** How many connections a pool keeps, for how long, and whether they may hold the process. */
export interface PoolSize {
  max: number;
  idleTimeoutMillis: number;
  keepAlive: boolean;
  allowExitOnIdle: boolean;
  /**
   * Whether an idle connection that closes is news: on a host that closes every request's
   * connections when the request ends (workerd), it is expected, and logged at debug level.
   */
  closedByHost?: boolean;
  /**
   * How a statement's run time is bounded: `session`, by `statement_timeout` as a startup
   * parameter of each connection; `client`, by pg's query_timeout, since a transaction-mode
   * pooler (PgBouncer, Neon's and Supabase's pooled URLs, Hyperdrive) hands each transaction any
   * server connection and refuses session parameters; `transaction`, not by the pool at all: the
   * caller sets it inside each transaction (`SET LOCAL`), as the migrations do, which may run
   * longer than any request should.
   */
  statementTimeout: 'session' | 'client' | 'transaction';
}

/** The node server: one process answers many requests at once for as long as it runs. */
export const LONG_LIVED_POOL: PoolSize = {
  max: 16,
  idleTimeoutMillis: 30_000,
  keepAlive: true,
  allowExitOnIdle: false,
  statementTimeout: 'session',
};

/**
 * A function instance: it answers one request (or a few) at a time, may be frozen between them
 * and is dropped without notice, and the database counts every open connection of every
 * instance against its limit (a free tier allows tens). So one connection, which the host
 * releases whenever the instance may be frozen (functions/hosts/fetch/create-fetch-handler.ts);
 * no TCP keep-alive, and an idle pool never keeps the event loop alive, so a host that waits for
 * it to drain is not held.
 */
export const FUNCTION_POOL: PoolSize = {
  max: 1,
  idleTimeoutMillis: 5_000,
  keepAlive: false,
  allowExitOnIdle: true,
  statementTimeout: 'client',
};

/**
 * `npm run migrate`: one connection, nothing set for the session, so that it works through the
 * transaction-mode pooler a function deployment's DATABASE_URL may name; the migrations bound
 * their own transaction (functions/state/postgres/run-migrations.ts).
 */
export const MIGRATION_POOL: PoolSize = {
  max: 1,
  idleTimeoutMillis: 1_000,
  keepAlive: false,
  allowExitOnIdle: true,
  statementTimeout: 'transaction',
};

/** How long a request waits for a connection when the URL does not say. */
const DEFAULT_CONNECT_TIMEOUT_MS = 3000;

/**
 * The URL's `connect_timeout`, libpq's name for it (whole seconds), which pg parses but leaves
 * unused: a deployment whose database is slow to accept connections (a loaded machine, a cold
 * serverless database) raises it there instead of failing at 3 s.
 */
function connectTimeoutMillis(connectionString: string): number {
  const value = URL.parse(connectionString)?.searchParams.get('connect_timeout');
  if (value === null || value === undefined) return DEFAULT_CONNECT_TIMEOUT_MS;
  const seconds = Number(value);
  if (!Number.isSafeInteger(seconds) || seconds <= 0)
    throw new Error(`The PostgreSQL URL's connect_timeout is ${value}: it takes whole seconds above 0`);
  return seconds * 1000;
}

/**
 * The connection pool of one storage. Times are BIGINT epoch milliseconds, which pg hands back as
 * strings lest a value past 2^53 lose digits; ours stay far below that, so they are read as
 * numbers, on this pool only (the driver's global parsers stay as they are).
 *
 * A request waits at most 3 s for a connection (or what the URL's connect_timeout says) and a
 * statement runs at most 10 s: past that the database is down or overloaded, and the caller gets
 * StorageUnavailable instead of hanging. TLS and every other connection setting come from the URL,
 * parsed as pg parses it.
 */
export async function createPool(connectionString: string, size: PoolSize = LONG_LIVED_POOL): Promise<Pool> {
  const pg = await driver();
  const parsers = new pg.TypeOverrides(pg.types);
  parsers.setTypeParser(INT8_OID, Number);
  const { statementTimeout, closedByHost, ...limits } = size;
  const pool = new pg.Pool({
    connectionString,
    ...limits,
    connectionTimeoutMillis: connectTimeoutMillis(connectionString),
    ...(statementTimeout === 'session' && { statement_timeout: STATEMENT_TIMEOUT_MS }),
    ...(statementTimeout === 'client' && { query_timeout: STATEMENT_TIMEOUT_MS }),
    types: parsers,
  });
  // An idle connection that breaks (a server restart) emits 'error' on the pool; unheard, it would
  // crash the process. The pool drops that connection and opens another on the next query.
  pool.on('error', (error) =>
    closedByHost === true
      ? logDebug('a request’s PostgreSQL connection was closed with it', { error: error.message })
      : logError('postgres-pool', error, { event: 'idle connection lost' }),
  );
  return pool;
}
