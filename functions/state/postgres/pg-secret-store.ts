import { randomBytes } from 'node:crypto';
import { SECRET_BYTES, SECRET_NAMES, type SecretName, type SecretStore } from '../storage.ts';
import type { PgPool } from './pg-connections.ts';
import { withPostgres } from './pg-errors.ts';

/**
 * Stores the secrets not stored yet and reads every one, in one statement. A secret another
 * instance stored after this statement's snapshot was taken is neither inserted (the conflict)
 * nor seen (the snapshot): the statement then runs again, and sees it.
 */
const LOAD_ALL = `
  WITH inserted AS (
    INSERT INTO app_secrets (name, value) SELECT * FROM unnest($1::text[], $2::bytea[])
    ON CONFLICT (name) DO NOTHING RETURNING name, value
  )
  SELECT name, value FROM inserted
  UNION ALL
  SELECT name, value FROM app_secrets WHERE name = ANY($1::text[]) AND name NOT IN (SELECT name FROM inserted)`;

/** How often LOAD_ALL runs before a missing secret counts as a bug: each rerun sees what the one before missed. */
const ATTEMPTS = 3;

/**
 * Signing secrets in PostgreSQL, shared by every instance: the first to ask stores them, and
 * every caller then reads whichever were stored first (instances starting together included).
 */
export class PgSecretStore implements SecretStore {
  constructor(private readonly pool: PgPool) {}

  loadAll(): Promise<Record<SecretName, Buffer>> {
    return withPostgres(async () => {
      for (let attempt = 1; ; attempt++) {
        const { rows } = await this.pool.query<{ name: SecretName; value: Buffer }>(LOAD_ALL, [
          SECRET_NAMES,
          SECRET_NAMES.map(() => randomBytes(SECRET_BYTES)),
        ]);
        const found = new Map(rows.map((row) => [row.name, row.value]));
        if (SECRET_NAMES.every((name) => found.has(name)))
          return Object.fromEntries(found) as Record<SecretName, Buffer>;
        if (attempt === ATTEMPTS) throw new Error('The secrets were stored but cannot be read back');
      }
    });
  }
}
