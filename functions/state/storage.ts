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
  /** Every secret (SECRET_BYTES long each), made where missing; every caller, in any instance, gets the same ones. */
  loadAll(): Promise<Record<SecretName, Buffer>>;
}

/** Which engine holds the durable state: embedded SQLite (the default), or a shared PostgreSQL. */
export type StorageEngine = 'sqlite' | 'postgresql';

/** How either engine is opened (openSqliteStorage, openPostgresStorage), from the configuration. */
export interface StorageOptions {
  /** How long an Idempotency-Key's recorded answer is kept for replays, in milliseconds. */
  idempotencyTtlMs: number;
  /**
   * Suits the PostgreSQL connections to the host: a long-lived server (the default) migrates at
   * open and keeps a pool; a function instance opens one connection when a store first needs it,
   * migrates nothing (`npm run migrate` does) and lets the host release it between requests.
   */
  runtime?: 'long-lived' | 'function';
  /** Where each request's connections live on a host that forbids sharing them between requests (workerd). */
  slots?: ConnectionSlots;
}

/**
 * Where a host that forbids reusing a connection across requests (workerd: "Cannot perform I/O
 * on behalf of a different request") keeps each request's connections: the host runs every
 * request in a slot of its own and closes what the slot holds once the request's work is done.
 */
export interface ConnectionSlots {
  /** The running request's slot, or undefined outside one. */
  current(): Map<object, { close(): Promise<void> }> | undefined;
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
  /**
   * Closes the connections an instance holds while idle, for a host that may freeze it between
   * requests (a frozen instance cannot close them itself); the next use opens new ones.
   */
  release(): Promise<void>;
  close(): Promise<void>;
}
