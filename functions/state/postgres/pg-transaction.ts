import type { PoolClient } from 'pg';
import type { PgPool } from './pg-connections.ts';
import { isUnavailable } from './pg-errors.ts';

/**
 * Runs `work` in one transaction on one connection: committed when it resolves, rolled back when
 * it throws. A connection that broke meanwhile is closed instead of going back to the pool.
 * `begin` may carry statements without parameters to run with BEGIN in the same round trip.
 */
export async function inTransaction<T>(
  pool: PgPool,
  work: (client: PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    broken = isUnavailable(error);
    if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
}
