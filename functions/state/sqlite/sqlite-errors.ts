import { StorageUnavailable } from '../../http/storage-unavailable.ts';

/** SQLite result codes that mean "cannot write now", not "bug": a full disk, a read-only file, I/O trouble. */
const UNAVAILABLE = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|PROTOCOL|NOLFS)/;

/** Runs a storage operation; a failure of the disk under it becomes a StorageUnavailable instead of a bug. */
export function withStorage<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE.test(code)) throw new StorageUnavailable({ cause: error });
    throw error;
  }
}
