import type { PgPool } from './pg-connections.ts';
import type { RateQuota } from '../../config/rate-quota.ts';
import type { QuotaLimiter, RateDecision } from '../../limits/rate-limiter.ts';
import type { SharedCounts } from '../../limits/shared-counts.ts';
import { withPostgres } from './pg-errors.ts';

/**
 * The database's clock in epoch milliseconds, the same for every instance (as Redis keeps its
 * own time): instances whose clocks disagree still count one window. Fixed for a statement.
 */
const NOW = '(extract(epoch FROM statement_timestamp()) * 1000)::bigint';

/**
 * Counts `$2` units for the key `$1` in a window of `$3` ms with a quota of `$4`, in one
 * statement: a new row, or a window that has ended, starts a window with them; a window with
 * room takes them; otherwise the row is left as it was and nothing comes back (a refusal counts
 * nothing). The row lock of ON CONFLICT DO UPDATE, and its WHERE evaluated on the latest row,
 * make concurrent counts on one key exact, from any number of instances. Parameters are typed
 * here: untyped, `$2 <= $4` would compare them as text.
 */
const CONSUME = `
  INSERT INTO quota_windows AS w (key, window_ends, used)
    SELECT $1::text, ${NOW} + $3::bigint, $2::integer WHERE $2::integer <= $4::integer
  ON CONFLICT (key) DO UPDATE SET
    window_ends = CASE WHEN w.window_ends <= ${NOW} THEN EXCLUDED.window_ends ELSE w.window_ends END,
    used = CASE WHEN w.window_ends <= ${NOW} THEN EXCLUDED.used ELSE w.used + EXCLUDED.used END
    WHERE w.window_ends <= ${NOW} OR w.used + EXCLUDED.used <= $4::integer
  RETURNING used, window_ends - ${NOW} AS ms_left`;

/** The window of `$1` still running, if any. */
const CURRENT = `SELECT used, window_ends - ${NOW} AS ms_left FROM quota_windows WHERE key = $1 AND window_ends > ${NOW}`;

/** Takes up to `$2` units off the running window of `$1`, never below zero, never from one that has ended. */
const GIVE_BACK = `UPDATE quota_windows SET used = GREATEST(0, used - $2::integer) WHERE key = $1 AND window_ends > ${NOW}`;

const PURGE = `DELETE FROM quota_windows WHERE window_ends <= ${NOW}`;

interface WindowRow {
  used: number;
  ms_left: number;
}

/**
 * Quotas counted in PostgreSQL, in the `quota_windows` table: a row per quota and client with its
 * fixed window's end and the units counted in it, the same fixed windows as MemoryLimiter and
 * Redis. A count is one statement, a refusal one more read; nothing lives in a session (no
 * named prepared statement, no SET, no lock held between statements), so it works through a
 * transaction-mode pooler. Ended windows are started anew by the next count of their key, or
 * deleted by the service's purge pass.
 */
export class PgQuotaCounts implements SharedCounts {
  readonly where = 'PostgreSQL';

  constructor(private readonly pool: PgPool) {}

  limiter(name: string, quota: RateQuota): QuotaLimiter {
    return new PgQuotaLimiter(this.pool, `${name}:`, quota);
  }

  purgeExpired(): Promise<number> {
    return withPostgres(async () => (await this.pool.query(PURGE)).rowCount ?? 0);
  }
}

class PgQuotaLimiter implements QuotaLimiter {
  constructor(
    private readonly pool: PgPool,
    private readonly prefix: string,
    readonly quota: RateQuota,
  ) {}

  consume(key: string, units = 1): Promise<RateDecision> {
    if (units === 0) return this.peek(key);
    return withPostgres(async () => {
      const values = [this.prefix + key, units, this.quota.seconds * 1000, this.quota.count];
      const counted = (await this.pool.query<WindowRow>(CONSUME, values)).rows[0];
      if (counted !== undefined) return this.decision(counted, true);
      return this.decision((await this.current(key)) ?? null, false);
    });
  }

  peek(key: string): Promise<RateDecision> {
    return withPostgres(async () => this.decision((await this.current(key)) ?? null, true));
  }

  async refund(key: string, units = 1): Promise<void> {
    await withPostgres(() => this.pool.query(GIVE_BACK, [this.prefix + key, units]));
  }

  private async current(key: string): Promise<WindowRow | undefined> {
    return (await this.pool.query<WindowRow>(CURRENT, [this.prefix + key])).rows[0];
  }

  /** The decision for the window `row` (null: none running, so the whole quota remains). */
  private decision(row: WindowRow | null, allowed: boolean): RateDecision {
    const { count, seconds } = this.quota;
    if (row === null) return { allowed, limit: count, remaining: count, resetSeconds: seconds };
    return {
      allowed,
      limit: count,
      remaining: Math.max(0, count - row.used),
      resetSeconds: Math.max(1, Math.ceil(row.ms_left / 1000)),
    };
  }
}
