import { redactUrl } from '../../config/redact-url.ts';
import type { Storage, StorageOptions } from '../storage.ts';
import { FUNCTION_POOL, LONG_LIVED_POOL } from './pg-driver.ts';
import { PgConnections } from './pg-connections.ts';
import { StorageUnavailable } from '../../http/storage-unavailable.ts';
import { SchemaTooNew } from '../schema-too-new.ts';
import { isUnavailable, withPostgres } from './pg-errors.ts';
import { PgIdempotencyStore } from './pg-idempotency-store.ts';
import { PgJobStore } from './pg-job-store.ts';
import { PgKeyStore } from './pg-key-store.ts';
import { PgMessageStore } from './pg-message-store.ts';
import { PgQuotaCounts } from './pg-quota-counts.ts';
import { PgSecretStore } from './pg-secret-store.ts';

/** PostgreSQL could not be reached when the storage was opened; the message names where it was looked for. */
export class PostgresUnreachable extends Error {
  constructor(location: string, options?: ErrorOptions) {
    const reason = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`PostgreSQL at ${location} cannot be reached${reason}`, options);
    this.name = 'PostgresUnreachable';
  }
}

/**
 * The shared storage at `url` (a postgresql:// URL; TLS and the rest as pg reads them). A
 * long-lived server connects now, bringing the schema up to date (PostgresUnreachable when the
 * server does not answer, SchemaTooNew when a newer version of the service migrated it); a
 * function instance connects only when a store first needs the database (PgConnections).
 */
export async function openPostgresStorage(url: string, options: StorageOptions): Promise<Storage> {
  const location = redactUrl(url);
  const longLived = options.runtime !== 'function';
  const connections = new PgConnections(url, location, {
    size: longLived ? LONG_LIVED_POOL : FUNCTION_POOL,
    migrate: longLived,
    slots: options.slots,
  });
  if (longLived) {
    try {
      await connections.query('SELECT 1');
    } catch (error) {
      await connections.release();
      const cause = error instanceof StorageUnavailable ? (error.cause ?? error) : error;
      if (cause instanceof SchemaTooNew) throw cause;
      if (isUnavailable(cause)) throw new PostgresUnreachable(location, { cause });
      throw cause;
    }
  }
  let closing: Promise<void> | undefined;
  return {
    engine: 'postgresql',
    location,
    readOnly: false,
    messages: new PgMessageStore(connections, options.idempotencyTtlMs),
    idempotency: new PgIdempotencyStore(connections),
    jobs: new PgJobStore(connections),
    keys: new PgKeyStore(connections),
    secrets: new PgSecretStore(connections),
    quotaCounts: new PgQuotaCounts(connections),
    async ping() {
      await withPostgres(() => connections.query('SELECT 1'));
    },
    release: () => connections.release(),
    // Idempotent, as SQLite's close is: a service stopped twice must not throw the second time.
    close: () => (closing ??= connections.release()),
  };
}
