import path from 'node:path';
import { FileSecretStore } from '../file-secret-store.ts';
import type { Storage, StorageOptions } from '../storage.ts';
import { withStorage } from './sqlite-errors.ts';
import { isReadOnly, openDatabase } from './database.ts';
import { GroupCommit } from './group-commit.ts';
import { InFlightKeys } from './in-flight-keys.ts';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store.ts';
import { SqliteJobStore } from './sqlite-job-store.ts';
import { SqliteKeyStore } from './sqlite-key-store.ts';
import { SqliteMessageStore } from './sqlite-message-store.ts';

/** The embedded engine, the default: one SQLite file (and the secret files) in DATA_DIR. */
export async function openSqliteStorage(dataDir: string, options: StorageOptions): Promise<Storage> {
  const db = await openDatabase(dataDir);
  const inFlight = new InFlightKeys();
  const idempotency = new SqliteIdempotencyStore(db, inFlight);
  const ping = db.prepare('SELECT 1');
  const commits = new GroupCommit(db);
  return {
    engine: 'sqlite',
    location: path.join(dataDir, 'portfolio.db'),
    readOnly: isReadOnly(db),
    messages: new SqliteMessageStore(db, idempotency, inFlight, options.idempotencyTtlMs, commits),
    idempotency,
    jobs: new SqliteJobStore(db),
    keys: new SqliteKeyStore(db),
    secrets: new FileSecretStore(dataDir),
    async ping() {
      withStorage(() => ping.get());
    },
    // One file in this process: nothing to give back while idle.
    release: () => Promise.resolve(),
    async close() {
      // Writes still queued for their group commit are stored (and their requests answered) first.
      commits.flush();
      db.close();
    },
  };
}
