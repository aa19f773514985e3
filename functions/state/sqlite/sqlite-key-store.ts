import type { KeyStore, NewKey, StoredKey } from '../../keys/key-store.ts';
import { KEY_COLUMNS, toStoredKey, type KeyRow } from '../key-row.ts';
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
      byHash: db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = ?`),
      byId: db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`),
      purge: db.prepare('DELETE FROM api_keys WHERE expires_at <= ?'),
    };
  }

  async insert(key: NewKey): Promise<void> {
    withStorage(() =>
      this.statements.insert.run(key.keyId, key.hash, key.label, Number(key.sandbox), key.createdAt, key.expiresAt),
    );
  }

  async findByHash(hash: string): Promise<StoredKey | undefined> {
    return toStoredKey(withStorage(() => this.statements.byHash.get(hash) as KeyRow | undefined));
  }

  async findById(keyId: string): Promise<StoredKey | undefined> {
    return toStoredKey(withStorage(() => this.statements.byId.get(keyId) as KeyRow | undefined));
  }

  async purgeExpired(now = Date.now()): Promise<number> {
    return withStorage(() => this.statements.purge.run(now).changes);
  }
}
