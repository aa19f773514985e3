import { createRequire } from 'node:module';
import type { Pool, TypeOverrides, types } from 'pg';
import { logError } from '../../log/log.ts';

interface PgDriver {
  Pool: typeof Pool;
  TypeOverrides: typeof TypeOverrides;
  types: typeof types;
}

/**
 * The driver, loaded only when DATABASE_URL selects this engine (and left out of the server
 * bundle): an instance on the embedded engine never loads it.
 */
function driver(): PgDriver {
  const require = createRequire(import.meta.url);
  return require('pg') as PgDriver;
}

/** PostgreSQL's type oid of BIGINT (int8): every time column, the ids and COUNT(*). */
const INT8_OID = 20;

/**
 * The connection pool of one storage. Times are BIGINT epoch milliseconds, which pg hands back as
 * strings lest a value past 2^53 lose digits; ours stay far below that, so they are read as
 * numbers, on this pool only (the driver's global parsers stay as they are).
 *
 * A request waits at most 3 s for a connection and a statement runs at most 10 s: past that the
 * database is down or overloaded, and the caller gets StorageUnavailable instead of hanging. TLS
 * and every other connection setting come from the URL, parsed as pg parses it.
 */
export function createPool(connectionString: string): Pool {
  const pg = driver();
  const parsers = new pg.TypeOverrides(pg.types);
  parsers.setTypeParser(INT8_OID, Number);
  const pool = new pg.Pool({
    connectionString,
    max: 16,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 10_000,
    keepAlive: true,
    types: parsers,
  });
  // An idle connection that breaks (a server restart) emits 'error' on the pool; unheard, it would
  // crash the process. The pool drops that connection and opens another on the next query.
  pool.on('error', (error) => logError('postgres-pool', error, { event: 'idle connection lost' }));
  return pool;
}
