import { BODY_BYTES_PER_REQUEST } from '../config/fixed-limits.ts';
import { rateLimitHeaders, type Eventually, type QuotaLimiter, type RateDecision } from '../limits/rate-limiter.ts';
import { ApiError } from './api-error.ts';

/** How many requests a body of `bytes` counts as: one per started BODY_BYTES_PER_REQUEST, at least one. */
export function bodyRequests(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / BODY_BYTES_PER_REQUEST));
}

/**
 * Counts `units` against a quota and returns the RateLimit-* headers for the response; over the
 * quota it throws a 429 `rate_limited` carrying those headers and Retry-After. A quota counted
 * in this process answers (or throws) at once; one counted in Redis, with a promise.
 */
export function charge(
  limiter: QuotaLimiter,
  key: string,
  units = 1,
  what = 'requests',
): Eventually<Record<string, string>> {
  const decision = limiter.consume(key, units);
  return decision instanceof Promise
    ? decision.then((settled) => headersFor(limiter, settled, what))
    : headersFor(limiter, decision, what);
}

function headersFor(limiter: QuotaLimiter, decision: RateDecision, what: string): Record<string, string> {
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new ApiError('rate_limited', `Too many ${what} from this client.`, {
      hint: `The quota is ${decision.limit} ${what} per ${limiter.quota.seconds} seconds; retry after ${decision.resetSeconds} seconds.`,
      headers,
    });
  }
  return headers;
}
