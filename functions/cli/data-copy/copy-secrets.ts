import type { PoolClient } from 'pg';
import type { SecretName } from '../../state/storage.ts';

/** How the SQLite deployment's signing secrets stand against PostgreSQL's (table app_secrets). */
export interface SecretsPlan {
  /** Secrets PostgreSQL does not have yet: copied, so what the SQLite instance signed keeps verifying. */
  missing: Map<SecretName, Buffer>;
  /** Secrets PostgreSQL has already, the same. */
  present: SecretName[];
  /** Secrets PostgreSQL has with another value: instances there already sign with it. */
  differing: Map<SecretName, Buffer>;
}

export async function planSecrets(
  client: PoolClient,
  secrets: ReadonlyMap<SecretName, Buffer>,
  hasSchema: boolean,
): Promise<SecretsPlan> {
  const held = new Map<string, Buffer>();
  if (hasSchema) {
    const { rows } = await client.query<{ name: string; value: Buffer }>(
      'SELECT name, value FROM app_secrets WHERE name = ANY($1::text[])',
      [[...secrets.keys()]],
    );
    for (const row of rows) held.set(row.name, row.value);
  }
  const plan: SecretsPlan = { missing: new Map(), present: [], differing: new Map() };
  for (const [name, secret] of secrets) {
    const existing = held.get(name);
    if (existing === undefined) plan.missing.set(name, secret);
    else if (existing.equals(secret)) plan.present.push(name);
    else plan.differing.set(name, secret);
  }
  return plan;
}

/** Stores the secrets, replacing any PostgreSQL holds under the same names. */
export async function writeSecrets(client: PoolClient, secrets: ReadonlyMap<SecretName, Buffer>): Promise<void> {
  for (const [name, value] of secrets) {
    await client.query(
      'INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value',
      [name, value],
    );
  }
}
