import type { PgPool } from './pg-connections.ts';
import type { KeyStore, NewKey, StoredKey } from '../../keys/key-store.ts';
import { KEY_COLUMNS, toStoredKey, type KeyRow } from '../key-row.ts';
import { withPostgres } from './pg-errors.ts';

/** API key hashes in PostgreSQL. */
export class PgKeyStore implements KeyStore {
  constructor(private readonly pool: PgPool) {}

  async insert(key: NewKey): Promise<void> {
    await withPostgres(() =>
      this.pool.query(
        'INSERT INTO api_keys (id, hash, label, created_in_sandbox, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [key.keyId, key.hash, key.label, key.sandbox, key.createdAt, key.expiresAt],
      ),
    );
  }

  findByHash(hash: string): Promise<StoredKey | undefined> {
    return this.findOne(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = $1`, hash);
  }

  findById(keyId: string): Promise<StoredKey | undefined> {
    return this.findOne(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`, keyId);
  }

  purgeExpired(now = Date.now()): Promise<number> {
    return withPostgres(async () => {
      const { rowCount } = await this.pool.query('DELETE FROM api_keys WHERE expires_at <= $1', [now]);
      return rowCount ?? 0;
    });
  }

  private findOne(sql: string, value: string): Promise<StoredKey | undefined> {
    return withPostgres(async () => toStoredKey((await this.pool.query<KeyRow>(sql, [value])).rows[0]));
  }
}
