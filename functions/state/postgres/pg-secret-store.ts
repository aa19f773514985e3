import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { SECRET_BYTES, type SecretName, type SecretStore } from '../storage.ts';
import { withPostgres } from './pg-errors.ts';

/**
 * Signing secrets in PostgreSQL, shared by every instance: the first to ask stores one, and
 * every caller then reads whichever was stored first (instances starting together included).
 */
export class PgSecretStore implements SecretStore {
  constructor(private readonly pool: Pool) {}

  loadOrCreate(name: SecretName): Promise<Buffer> {
    return withPostgres(async () => {
      await this.pool.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
        name,
        randomBytes(SECRET_BYTES),
      ]);
      const { rows } = await this.pool.query<{ value: Buffer }>('SELECT value FROM app_secrets WHERE name = $1', [
        name,
      ]);
      const secret = rows[0]?.value;
      if (secret === undefined) throw new Error(`The secret ${name} was stored but cannot be read back`);
      return secret;
    });
  }
}
