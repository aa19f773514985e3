import { LRUCache } from 'lru-cache';
import type { AccessTokens } from './access-token.ts';
import { hashKey, newTestKey, TEST_KEY_PATTERN } from './key-format.ts';
import type { KeyStore, StoredKey } from './key-store.ts';

/** A key as POST /api/v1/keys returns it: the only time the key itself is shown. */
export interface IssuedKey {
  key: string;
  keyId: string;
  mode: 'test';
  label: string | null;
  createdAt: string;
  expiresAt: string;
}

/**
 * Test keys: creation, and verification of a presented key or access token on every request.
 * Keys are cached by hash (for a presented key) and by id (for an access token), bounded, so a
 * keyed read costs a hash and a map lookup, not a query. A cached key is used only until its
 * expiry; key rows never change otherwise.
 */
export class KeyService {
  private readonly byHashCache = new LRUCache<string, StoredKey>({ max: 10_000 });
  private readonly byIdCache = new LRUCache<string, StoredKey>({ max: 10_000 });

  constructor(
    private readonly store: KeyStore,
    /** The access tokens' signer, whose key is read when first needed. */
    private readonly tokens: () => Promise<AccessTokens>,
    private readonly ttlSeconds: number,
    private readonly tokenTtlSeconds: number,
  ) {}

  async create(label: string | null, sandbox: boolean, now = Date.now()): Promise<IssuedKey> {
    const { key, keyId } = newTestKey();
    const expiresAt = now + this.ttlSeconds * 1000;
    await this.store.insert({ keyId, hash: hashKey(key), label, sandbox, createdAt: now, expiresAt });
    return {
      key,
      keyId,
      mode: 'test',
      label,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** The key id behind a presented test key or access token, or null when it is not valid now. */
  async verify(credential: string, now = Date.now()): Promise<string | null> {
    if (TEST_KEY_PATTERN.test(credential))
      return this.liveKey(await this.byHash(hashKey(credential)), now)?.keyId ?? null;
    const keyId = (await this.tokens()).verify(credential, now);
    return keyId === null ? null : (this.liveKey(await this.byId(keyId), now)?.keyId ?? null);
  }

  /** The client-credentials grant: the key must match its id. Returns the token and its lifetime. */
  async issueToken(
    keyId: string,
    secret: string,
    now = Date.now(),
  ): Promise<{ token: string; expiresIn: number } | null> {
    if (!TEST_KEY_PATTERN.test(secret)) return null;
    const key = this.liveKey(await this.byHash(hashKey(secret)), now);
    if (key === undefined || key.keyId !== keyId) return null;
    // A token never outlives its key.
    const expiresAt = Math.min(now + this.tokenTtlSeconds * 1000, key.expiresAt);
    return { token: (await this.tokens()).issue(keyId, expiresAt), expiresIn: Math.floor((expiresAt - now) / 1000) };
  }

  private byHash(hash: string): Promise<StoredKey | undefined> {
    return cached(this.byHashCache, hash, () => this.store.findByHash(hash));
  }

  private byId(keyId: string): Promise<StoredKey | undefined> {
    return cached(this.byIdCache, keyId, () => this.store.findById(keyId));
  }

  private liveKey(key: StoredKey | undefined, now: number): StoredKey | undefined {
    return key !== undefined && key.expiresAt > now ? key : undefined;
  }
}

/** A stored key from the cache, or from the store (and then cached) when it exists there. */
async function cached(
  cache: LRUCache<string, StoredKey>,
  id: string,
  load: () => Promise<StoredKey | undefined>,
): Promise<StoredKey | undefined> {
  let key = cache.get(id);
  if (key === undefined) {
    key = await load();
    if (key !== undefined) cache.set(id, key);
  }
  return key;
}
