import Database from 'better-sqlite3';
import path from 'node:path';
import pg from 'pg';
import { engineEnv } from './engines.ts';

/**
 * Runs one SQL statement straight against a deployment's state, on whichever engine the run uses,
 * for what a test must see or change under the service (a key stored only as a hash, a record
 * aged past its expiry). Placeholders are written `?`; both schemas share table and column names.
 */
export async function queryState(
  dataDir: string,
  sql: string,
  ...params: unknown[]
): Promise<Record<string, unknown>[]> {
  const { DATABASE_URL: url } = await engineEnv(dataDir);
  if (url === undefined) {
    const db = new Database(path.join(dataDir, 'portfolio.db'));
    try {
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
      statement.run(...params);
      return [];
    } finally {
      db.close();
    }
  }
  let index = 0;
  // BIGINT (counts, epoch milliseconds) as numbers, as SQLite gives them.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === 20 ? Number : (pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown),
  };
  const client = new pg.Client({ connectionString: url, types: types as pg.CustomTypesConfig });
  await client.connect();
  try {
    const result = await client.query(
      sql.replace(/\?/g, () => `$${++index}`),
      params,
    );
    return result.rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
