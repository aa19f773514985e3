import type { MessageStore } from '../contact/message-store.ts';
import type { JobStore } from '../jobs/job-store.ts';
import type { KeyStore } from '../keys/key-store.ts';
import type { IdempotencyStore } from '../contact/idempotency-store.ts';
import type { SharedCounts } from '../limits/shared-counts.ts';

/** The secrets every instance signs with: cursors, OAuth access tokens, and the contact form's fill-time tokens. */
export type SecretName = 'cursor' | 'token' | 'form';

/** Every secret name, in the order they are reported. */
export const SECRET_NAMES: readonly SecretName[] = ['cursor', 'token', 'form'];

/** What each secret signs, as messages about a changed secret name it. */
export const SIGNED_WITH: Record<SecretName, string> = {
  cursor: 'cursors',
  token: 'access tokens',
  form: 'contact form tokens',
};

/** The length of every secret, in bytes. */
export const SECRET_BYTES = 32;

/**
 * Per-deployment signing secrets, made on first use and then kept, so that signed values stay
 * valid across restarts and on every instance sharing the storage.
 */
export interface SecretStore {
  /** The secret (SECRET_BYTES long); every caller, in any instance, gets the same one. */
  loadOrCreate(name: SecretName): Promise<Buffer>;
}

/** Which engine holds the durable state: embedded SQLite (the default), or a shared PostgreSQL. */
export type StorageEngine = 'sqlite' | 'postgresql';

/** How either engine is opened (openSqliteStorage, openPostgresStorage), from the configuration. */
export interface StorageOptions {
  /** How long an Idempotency-Key's recorded answer is kept for replays, in milliseconds. */
  idempotencyTtlMs: number;
  /** Suits the PostgreSQL pool to the host: a long-lived server (the default) or short-lived function instances. */
  shortLived?: boolean;
}

/**
 * All durable state behind one object: the domain sees only these interfaces, and each engine
 * implements every store once (functions/state/sqlite, functions/state/postgres). A store that
 * cannot reach its engine (a full disk, PostgreSQL down) throws StorageUnavailable
 * (http/storage-unavailable.ts), which the HTTP layer answers as 503 storage_unavailable.
 */
export interface Storage {
  readonly engine: StorageEngine;
  /** Where the state lives, for the start-up log line (a path, or a URL without its password). */
  readonly location: string;
  /** True when the engine can only be read (a read-only DATA_DIR): every write fails with StorageUnavailable. */
  readonly readOnly: boolean;
  readonly messages: MessageStore;
  readonly idempotency: IdempotencyStore;
  readonly jobs: JobStore;
  readonly keys: KeyStore;
  readonly secrets: SecretStore;
  /**
   * Quotas counted in this storage for every instance sharing it (PostgreSQL); absent on an
   * engine that one process owns (SQLite), whose quotas are counted in that process.
   */
  readonly quotaCounts?: SharedCounts;
  /** Resolves when the engine answers a trivial query; throws StorageUnavailable otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
