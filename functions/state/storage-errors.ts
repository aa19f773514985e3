import { ApiError } from '../http/api-error.ts';

/** SQLite result codes that mean "cannot write now", not "bug": a full disk, a read-only file, I/O trouble. */
const UNAVAILABLE = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|PROTOCOL|NOLFS)/;

/**
 * Runs a storage operation; a failure of the disk under it becomes a 503 `storage_unavailable`
 * (nothing was stored, retry later) instead of a 500.
 */
export function withStorage<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE.test(code)) {
      throw new ApiError('storage_unavailable', 'The service cannot store anything right now; nothing was stored.', {
        hint: 'Retry after the Retry-After delay with the same Idempotency-Key.',
        headers: { 'retry-after': '30' },
      });
    }
    throw error;
  }
}
