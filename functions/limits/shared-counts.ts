import type { RateQuota } from '../config/rate-quota.ts';
import type { QuotaLimiter } from './rate-limiter.ts';

/**
 * Quotas counted in the durable storage that every instance shares (PostgreSQL:
 * functions/state/postgres/pg-quota-counts.ts), exactly across instances. Defined here and
 * implemented by the engine, so that the quotas never import an engine; the wiring
 * (functions/app/services.ts) hands the storage's counts to the QuotaBook.
 */
export interface SharedCounts {
  /** Where the counts are kept, for the start-up log line and the outage log lines. */
  readonly where: string;
  /** A quota counted under `name`, apart from every other name. */
  limiter(name: string, quota: RateQuota): QuotaLimiter;
  /** Forgets the windows that have ended (the service's purge pass); resolves with how many. */
  purgeExpired(): Promise<number>;
}
