/**
 * The storage refused an operation (a full disk, a read-only file, PostgreSQL down); nothing was
 * stored. Every engine throws this one error for it, and the HTTP layer answers it as a 503
 * `storage_unavailable` (known-errors.ts); it lives here, below the engines, so that both can
 * name it without the HTTP layer knowing any engine.
 */
export class StorageUnavailable extends Error {
  constructor(options?: ErrorOptions) {
    // The cause's words ("database is locked", "connect ECONNREFUSED") are what the owner needs in the log.
    const cause = options?.cause instanceof Error ? `: ${options.cause.message}` : '.';
    super(`The storage cannot be used right now${cause}`, options);
    this.name = 'StorageUnavailable';
  }
}
