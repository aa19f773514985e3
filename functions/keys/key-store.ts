export interface StoredKey {
  keyId: string;
  label: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface NewKey extends StoredKey {
  /** hashKey(key): the key itself is never stored. */
  hash: string;
  sandbox: boolean;
}

/** API keys at rest: only their hashes, never the keys themselves. Times are epoch milliseconds. */
export interface KeyStore {
  insert(key: NewKey): Promise<void>;
  findByHash(hash: string): Promise<StoredKey | undefined>;
  findById(keyId: string): Promise<StoredKey | undefined>;
  /** Deletes keys that expired; returns how many. */
  purgeExpired(now?: number): Promise<number>;
}
