import { redactUrl } from '../../config/redact-url.ts';
import type { Storage, StorageOptions } from '../storage.ts';
import { createPool, LONG_LIVED_POOL, SHORT_LIVED_POOL } from './pg-driver.ts';
import { isUnavailable, withPostgres } from './pg-errors.ts';
import { PgIdempotencyStore } from './pg-idempotency-store.ts';
import { PgJobStore } from './pg-job-store.ts';
import { PgKeyStore } from './pg-key-store.ts';
import { PgMessageStore } from './pg-message-store.ts';
import { PgQuotaCounts } from './pg-quota-counts.ts';
import { PgSecretStore } from './pg-secret-store.ts';
import { runMigrations } from './run-migrations.ts';

/** PostgreSQL could not be reached when the storage was opened; the message names where it was looked for. */
export class PostgresUnreachable extends Error {
  constructor(location: string, options?: ErrorOptions) {
    const reason = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`PostgreSQL at ${location} cannot be reached${reason}`, options);
    this.name = 'PostgresUnreachable';
  }
}

/**
 * Opens the shared storage at `url` (a postgresql:// URL; TLS and the rest as pg reads them) and
 * brings its schema up to date. Throws PostgresUnreachable when the server does not answer,
 * SchemaTooNew when a newer version of the service has migrated the database.
 */
export async function openPostgresStorage(url: string, options: StorageOptions): Promise<Storage> {
  const location = redactUrl(url);
  const pool = await createPool(url, options.shortLived === true ? SHORT_LIVED_POOL : LONG_LIVED_POOL);
  try {
    await runMigrations(pool, location);
  } catch (error) {
    await pool.end();
    if (isUnavailable(error)) throw new PostgresUnreachable(location, { cause: error });
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    engine: 'postgresql',
    location,
    readOnly: false,
    messages: new PgMessageStore(pool, options.idempotencyTtlMs),
    idempotency: new PgIdempotencyStore(pool),
    jobs: new PgJobStore(pool),
    keys: new PgKeyStore(pool),
    secrets: new PgSecretStore(pool),
    quotaCounts: new PgQuotaCounts(pool),
    async ping() {
      await withPostgres(() => pool.query('SELECT 1'));
    },
    // Idempotent, as SQLite's close is: a service stopped twice must not throw the second time.
    close: () => (closing ??= pool.end()),
  };
}
