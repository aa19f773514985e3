import { StorageUnavailable } from '../../http/storage-unavailable.ts';

/** Socket-level failures: the server is not there, or the connection to it broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that mean "the database cannot serve now", not "this statement is wrong": classes 08
 * (connection exception), 53 (insufficient resources: disk full, too many connections) and 58
 * (system error), the shutdown and start-up codes of class 57, 57014 (a statement cancelled by
 * statement_timeout: an overloaded or locked-up database) and 25006 (a read-only standby, as
 * during a failover).
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|58)[0-9A-Z]{3}$|^57P0[123]$|^57014$|^25006$/;

/** How pg words failures that carry no code: a dropped connection, or no free connection in time. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout/i;

/** Whether `error` says the database cannot be reached or cannot serve, rather than a bug. */
export function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  // Node tries every address of a host name and reports the failures together (AggregateError).
  return Array.isArray(errors) && errors.length > 0 && errors.every(isUnavailable);
}

/**
 * Runs a database operation; a database that cannot be reached or cannot serve becomes a
 * StorageUnavailable (answered 503, safe to retry), anything else is rethrown as the bug it is.
 */
export async function withPostgres<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isUnavailable(error)) throw new StorageUnavailable({ cause: error });
    throw error;
  }
}
