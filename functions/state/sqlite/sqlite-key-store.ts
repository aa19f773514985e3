import type { KeyStore, NewKey, StoredKey } from '../../keys/key-store.ts';
import { withStorage } from './sqlite-errors.ts';
import type { Db } from './database.ts';

/** Test keys in SQLite (migration 2). */
export class SqliteKeyStore implements KeyStore {
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

  async insert(key: NewKey): Promise<void> {
    withStorage(() =>
      this.statements.insert.run(key.keyId, key.hash, key.label, Number(key.sandbox), key.createdAt, key.expiresAt),
    );
  }

  async findByHash(hash: string): Promise<StoredKey | undefined> {
    return toKey(withStorage(() => this.statements.byHash.get(hash)));
  }

  async findById(keyId: string): Promise<StoredKey | undefined> {
    return toKey(withStorage(() => this.statements.byId.get(keyId)));
  }

  async purgeExpired(now = Date.now()): Promise<number> {
    return withStorage(() => this.statements.purge.run(now).changes);
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
