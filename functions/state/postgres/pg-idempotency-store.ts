import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { Claim, IdempotencyStore, KeyRef } from '../idempotency-store.ts';
import { withPostgres } from './pg-errors.ts';

/**
 * Takes the key unless someone holds it: a new row, or a row whose answer expired or whose
 * claim's lease passed (its holder died). The row is the lock, committed on its own, so every
 * instance sees it. An in-flight claim expires with its lease.
 */
const CLAIM = `
  INSERT INTO idempotency AS held (scope, sandbox, key, state, token, locked_until, created_at, expires_at)
  VALUES ($1, $2, $3, 'in_flight', $4, $5::bigint + $6::bigint, $5, $5::bigint + $6::bigint)
  ON CONFLICT (scope, sandbox, key) DO UPDATE SET
    state = 'in_flight', token = EXCLUDED.token, locked_until = EXCLUDED.locked_until,
    fingerprint = NULL, status = NULL, body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
  WHERE held.expires_at <= $5 OR (held.state = 'in_flight' AND held.locked_until <= $5)
  RETURNING token`;

const HOLDER =
  'SELECT state, fingerprint, status, body FROM idempotency WHERE scope = $1 AND sandbox = $2 AND key = $3';

interface HolderRow {
  state: 'in_flight' | 'done';
  fingerprint: string;
  status: number;
  body: string;
}

/** Idempotency claims and answers in PostgreSQL; the answers are recorded by PgMessageStore.storeSubmission. */
export class PgIdempotencyStore implements IdempotencyStore {
  constructor(private readonly pool: Pool) {}

  claim(ref: KeyRef, leaseMs: number, now = Date.now()): Promise<Claim> {
    return withPostgres(async () => {
      // The holder may give the key back between our two statements; then it is free to take. A
      // key that keeps changing hands that fast is, for this request, held by someone else.
      for (let attempt = 0; attempt < 3; attempt++) {
        const token = randomBytes(18).toString('base64url');
        const claimed = await this.pool.query(CLAIM, [ref.scope, ref.sandbox, ref.key, token, now, leaseMs]);
        if (claimed.rowCount === 1) return { kind: 'claimed', token };
        const { rows } = await this.pool.query<HolderRow>(HOLDER, [ref.scope, ref.sandbox, ref.key]);
        const holder = rows[0];
        if (holder === undefined) continue;
        if (holder.state === 'in_flight') return { kind: 'in_flight' };
        const { fingerprint, status, body } = holder;
        return { kind: 'recorded', answer: { fingerprint, status, body } };
      }
      return { kind: 'in_flight' };
    });
  }

  async release(ref: KeyRef, token: string): Promise<void> {
    await withPostgres(() =>
      this.pool.query(
        "DELETE FROM idempotency WHERE scope = $1 AND sandbox = $2 AND key = $3 AND state = 'in_flight' AND token = $4",
        [ref.scope, ref.sandbox, ref.key, token],
      ),
    );
  }

  purge(now = Date.now()): Promise<number> {
    return withPostgres(async () => {
      const { rowCount } = await this.pool.query('DELETE FROM idempotency WHERE expires_at <= $1', [now]);
      return rowCount ?? 0;
    });
  }
}
