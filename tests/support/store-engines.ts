import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPostgresStorage } from '../../functions/state/postgres/postgres-storage.ts';
import { openSqliteStorage } from '../../functions/state/sqlite/sqlite-storage.ts';
import type { Storage } from '../../functions/state/storage.ts';
import { freshDatabaseUrl, HAS_POSTGRES } from './postgres.ts';

/** How long a recorded Idempotency-Key answer is kept, in the contract suites. */
export const CONTRACT_TTL_MS = 60_000;

/**
 * The storage engines a store contract runs on, for `describe.each`: each `open()` gives a new,
 * empty storage (a new data directory, a new database), closed by `closeOpened()`.
 */
export const STORE_ENGINES: {
  name: string;
  skip: boolean;
  /** Idempotency claims lapse after their lease (PostgreSQL); on SQLite they end with their process. */
  claimsLapse: boolean;
  open: () => Promise<Storage>;
}[] = [
  {
    name: 'SQLite',
    skip: false,
    claimsLapse: false,
    open: async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'store-contract-'));
      dirs.push(dir);
      return remember(openSqliteStorage(dir, { idempotencyTtlMs: CONTRACT_TTL_MS }));
    },
  },
  {
    name: 'PostgreSQL',
    skip: !HAS_POSTGRES,
    claimsLapse: true,
    open: async () =>
      remember(await openPostgresStorage(await freshDatabaseUrl(), { idempotencyTtlMs: CONTRACT_TTL_MS })),
  },
];

const dirs: string[] = [];
const opened: Storage[] = [];

function remember(storage: Storage): Storage {
  opened.push(storage);
  return storage;
}

/** Closes every storage the suites opened and removes their data directories (for afterAll). */
export async function closeOpened(): Promise<void> {
  await Promise.all(opened.splice(0).map((storage) => storage.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
