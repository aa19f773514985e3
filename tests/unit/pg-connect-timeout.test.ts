import { afterAll, describe, expect, it } from 'vitest';
import type { Pool } from 'pg';
import { createPool } from '../../functions/state/postgres/pg-driver.ts';

// A pool connects only on its first query, so these pools never reach a server.
const pools: Pool[] = [];
afterAll(() => Promise.all(pools.map((pool) => pool.end())));

async function connectTimeoutOf(url: string): Promise<number | undefined> {
  const pool = await createPool(url);
  pools.push(pool);
  return pool.options.connectionTimeoutMillis;
}

describe("a PostgreSQL URL's connect_timeout (libpq's name, whole seconds)", () => {
  it('sets how long a request waits for a connection, and leaves it at 3 s when absent', async () => {
    expect(await connectTimeoutOf('postgresql://app@db.example/portfolio?connect_timeout=60')).toBe(60_000);
    expect(await connectTimeoutOf('postgresql://app@db.example/portfolio?sslmode=require&connect_timeout=5')).toBe(
      5000,
    );
    expect(await connectTimeoutOf('postgresql://app@db.example/portfolio')).toBe(3000);
  });

  it.each(['0', '-1', '1.5', 'ten', ''])('refuses connect_timeout=%s, naming the value', async (value) => {
    await expect(
      connectTimeoutOf(`postgresql://app:secret@db.example/portfolio?connect_timeout=${value}`),
    ).rejects.toThrow(`connect_timeout is ${value}:`);
  });
});
