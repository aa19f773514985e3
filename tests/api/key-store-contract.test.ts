import { afterAll, describe, expect, it } from 'vitest';
import type { NewKey } from '../../functions/keys/key-store.ts';
import type { Storage } from '../../functions/state/storage.ts';
import { closeOpened, STORE_ENGINES } from '../support/store-engines.ts';

/**
 * One contract for API keys at rest, run against each engine: a key is found by its hash or its
 * id, by every instance, until it expires and is purged. Each test opens a storage of its own.
 */
const T = 1_800_000_000_000;

const key = (keyId: string, hash: string, expiresAt: number, label: string | null = null): NewKey => ({
  keyId,
  hash,
  label,
  sandbox: true,
  createdAt: T,
  expiresAt,
});

afterAll(closeOpened);

describe.each(STORE_ENGINES)('the key store on $name', ({ skip, open, instances, reopen }) => {
  it.skipIf(skip)('finds a key by its hash and by its id, from every instance, and nothing else', async () => {
    const [a, b] = (await instances(2)) as [Storage, Storage];
    await a.keys.insert(key('k1', 'h1', T + 10, 'ci'));
    await a.keys.insert(key('k2', 'h2', T + 20));
    expect(await b.keys.findByHash('h1')).toEqual({ keyId: 'k1', label: 'ci', createdAt: T, expiresAt: T + 10 });
    expect(await b.keys.findById('k2')).toEqual({ keyId: 'k2', label: null, createdAt: T, expiresAt: T + 20 });
    expect(await b.keys.findById('k3')).toBeUndefined();
    expect(await b.keys.findByHash('k1')).toBeUndefined();
    expect(await b.keys.findById('h1')).toBeUndefined();
    // A key outlives a restart.
    const restarted = await reopen(a);
    expect(await restarted.keys.findByHash('h2')).toEqual({
      keyId: 'k2',
      label: null,
      createdAt: T,
      expiresAt: T + 20,
    });
  });

  it.skipIf(skip)('refuses a second key with the same id or the same hash', async () => {
    const storage = await open();
    await storage.keys.insert(key('k1', 'h1', T + 10));
    await expect(storage.keys.insert(key('k1', 'h2', T + 10))).rejects.toThrow();
    await expect(storage.keys.insert(key('k2', 'h1', T + 10))).rejects.toThrow();
    expect(await storage.keys.findByHash('h2')).toBeUndefined();
    expect(await storage.keys.findById('k2')).toBeUndefined();
  });

  it.skipIf(skip)('purges the keys that expired by a time, and only those', async () => {
    const [a, b] = (await instances(2)) as [Storage, Storage];
    await a.keys.insert(key('k1', 'h1', T + 10));
    await a.keys.insert(key('k2', 'h2', T + 20));
    expect(await b.keys.purgeExpired(T + 9)).toBe(0);
    expect(await b.keys.purgeExpired(T + 10)).toBe(1);
    expect(await a.keys.findByHash('h1')).toBeUndefined();
    expect(await a.keys.findById('k1')).toBeUndefined();
    expect(await a.keys.findById('k2')).toMatchObject({ keyId: 'k2' });
    expect(await b.keys.purgeExpired(T + 10)).toBe(0);
    expect(await b.keys.purgeExpired(T + 1000)).toBe(1);
  });
});
