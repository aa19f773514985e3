import type { Db } from '../state/database.ts';

export interface StoredKey {
  keyId: string;
  label: string | null;
  createdAt: number;
  expiresAt: number;
}

/** API keys at rest: only their hashes, never the keys themselves. */
export class KeyStore {
  private readonly statements;

  constructor(db: Db) {
    this.statements = {
      insert: db.prepare(
        'INSERT INTO api_keys (id, hash, label, created_in_sandbox, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      byHash: db.prepare('SELECT id, label, created_at, expires_at FROM api_keys WHERE hash = ?'),
      byId: db.prepare('SELECT id, label, created_at, expires_at FROM api_keys WHERE id = ?'),
      purge: db.prepare('DELETE FROM api_keys WHERE expires_at <= ?'),
    };
  }

  insert(
    keyId: string,
    hash: string,
    label: string | null,
    sandbox: boolean,
    createdAt: number,
    expiresAt: number,
  ): void {
    this.statements.insert.run(keyId, hash, label, Number(sandbox), createdAt, expiresAt);
  }

  findByHash(hash: string): StoredKey | undefined {
    return toKey(this.statements.byHash.get(hash));
  }

  findById(keyId: string): StoredKey | undefined {
    return toKey(this.statements.byId.get(keyId));
  }

  purgeExpired(now = Date.now()): number {
    return this.statements.purge.run(now).changes;
  }
}

function toKey(row: unknown): StoredKey | undefined {
  if (row === undefined) return undefined;
  const { id, label, created_at, expires_at } = row as {
    id: string;
    label: string | null;
    created_at: number;
    expires_at: number;
  };
  return { keyId: id, label, createdAt: created_at, expiresAt: expires_at };
}
