import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../../functions/state/sqlite/sqlite-storage.ts';
import { SECRET_NAMES } from '../../functions/state/storage.ts';
import { closeOpened, CONTRACT_TTL_MS, STORE_ENGINES } from '../support/store-engines.ts';
import { CAN_MOUNT, mountTmpfs, remount, unmount } from '../support/tmpfs.ts';

/**
 * One contract for the signing secrets, run against each engine: each secret is made once and
 * then every caller, on every instance and after every restart, gets the same one, so what was
 * signed stays valid. Each test opens a storage of its own.
 */
afterAll(closeOpened);

const hex = (secret: Buffer) => secret.toString('hex');

describe.each(STORE_ENGINES)('the secret store on $name', ({ name, skip, open, instances, reopen }) => {
  it.skipIf(skip)('gives every caller on every instance the same secrets, made once, even asked together', async () => {
    const storages = await instances(3);
    const loaded = await Promise.all(storages.flatMap((storage) => [1, 2].map(() => storage.secrets.loadAll())));
    const cursors = loaded.map((secrets) => secrets.cursor);
    const tokens = loaded.map((secrets) => secrets.token);
    expect(cursors[0]).toHaveLength(32);
    expect(cursors.map(hex)).toEqual(Array(6).fill(hex(cursors[0] as Buffer)));
    expect(tokens.map(hex)).toEqual(Array(6).fill(hex(tokens[0] as Buffer)));
    expect(hex(tokens[0] as Buffer)).not.toBe(hex(cursors[0] as Buffer));
  });

  it.skipIf(skip)('keeps every secret across a restart, each independent of the others', async () => {
    const storage = await open();
    const stored = await storage.secrets.loadAll();
    const before = SECRET_NAMES.map((name) => stored[name]);
    for (const secret of before) expect(secret).toHaveLength(32);
    expect(new Set(before.map(hex)).size).toBe(SECRET_NAMES.length);
    const restarted = await reopen(storage);
    const reloaded = await restarted.secrets.loadAll();
    expect(SECRET_NAMES.map((name) => hex(reloaded[name]))).toEqual(before.map(hex));
  });

  it.skipIf(skip)('gives a new state new secrets', async () => {
    const secrets = await Promise.all(
      [await open(), await open()].map(async (storage) => (await storage.secrets.loadAll()).form),
    );
    expect(hex(secrets[0] as Buffer)).not.toBe(hex(secrets[1] as Buffer));
  });

  // SQLite keeps its secrets as files in DATA_DIR; where they cannot be written, they live in the process.
  it.skipIf(skip || name !== 'SQLite' || !CAN_MOUNT)(
    'gives every caller the same secret where DATA_DIR cannot be written',
    async () => {
      const dataDir = mountTmpfs(256) as string;
      try {
        remount(dataDir, 'ro');
        const storage = await openSqliteStorage(dataDir, { idempotencyTtlMs: CONTRACT_TTL_MS });
        try {
          expect(storage.readOnly).toBe(true);
          const first = (await storage.secrets.loadAll()).cursor;
          expect(first).toHaveLength(32);
          const again = await storage.secrets.loadAll();
          expect(hex(again.cursor)).toBe(hex(first));
          expect(hex(again.token)).not.toBe(hex(first));
        } finally {
          await storage.close();
        }
      } finally {
        unmount(dataDir);
      }
    },
  );
});
