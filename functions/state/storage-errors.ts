/** SQLite result codes that mean "cannot write now", not "bug": a full disk, a read-only file, I/O trouble. */
const UNAVAILABLE = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|PROTOCOL|NOLFS)/;

/**
 * The disk under the database refused an operation; nothing was stored. A plain error of the
 * storage layer: the HTTP layer decides how it is answered (http/known-errors.ts).
 */
export class StorageUnavailable extends Error {
  constructor(options?: ErrorOptions) {
    // The cause's words ("database is locked", "connect ECONNREFUSED") are what the owner needs in the log.
    const cause = options?.cause instanceof Error ? `: ${options.cause.message}` : '.';
    super(`The storage cannot be used right now${cause}`, options);
    this.name = 'StorageUnavailable';
  }
}

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
