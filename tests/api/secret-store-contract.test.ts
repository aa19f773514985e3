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
  it.skipIf(skip)('gives every caller on every instance the same secret, made once, even asked together', async () => {
    const storages = await instances(3);
    const cursors = await Promise.all(
      storages.flatMap((storage) => [1, 2].map(() => storage.secrets.loadOrCreate('cursor'))),
    );
    const tokens = await Promise.all(storages.map((storage) => storage.secrets.loadOrCreate('token')));
    expect(cursors[0]).toHaveLength(32);
    expect(cursors.map(hex)).toEqual(Array(6).fill(hex(cursors[0] as Buffer)));
    expect(tokens.map(hex)).toEqual(Array(3).fill(hex(tokens[0] as Buffer)));
    expect(hex(tokens[0] as Buffer)).not.toBe(hex(cursors[0] as Buffer));
  });

  it.skipIf(skip)('keeps every secret across a restart, each independent of the others', async () => {
    const storage = await open();
    const before = await Promise.all(SECRET_NAMES.map((name) => storage.secrets.loadOrCreate(name)));
    for (const secret of before) expect(secret).toHaveLength(32);
    expect(new Set(before.map(hex)).size).toBe(SECRET_NAMES.length);
    const restarted = await reopen(storage);
    // Asked in another order after the restart: each name still has its own secret.
    const after = await Promise.all([...SECRET_NAMES].reverse().map((name) => restarted.secrets.loadOrCreate(name)));
    expect(after.reverse().map(hex)).toEqual(before.map(hex));
  });

  it.skipIf(skip)('gives a new state new secrets', async () => {
    const secrets = await Promise.all(
      [await open(), await open()].map((storage) => storage.secrets.loadOrCreate('form')),
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
          const first = await storage.secrets.loadOrCreate('cursor');
          expect(first).toHaveLength(32);
          expect(hex(await storage.secrets.loadOrCreate('cursor'))).toBe(hex(first));
          expect(hex(await storage.secrets.loadOrCreate('token'))).not.toBe(hex(first));
        } finally {
          await storage.close();
        }
      } finally {
        unmount(dataDir);
      }
    },
  );
});
