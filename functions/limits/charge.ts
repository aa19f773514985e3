import { ApiError } from '../http/api-error.ts';
import { rateLimitHeaders, type QuotaLimiter } from './rate-limiter.ts';

/**
 * Body bytes one counted request covers. Requests are far smaller; a larger body counts one
 * request per started share, since reading it costs the server more than one request's worth
 * (`npm run bench:abuse`).
 */
export const BODY_BYTES_PER_REQUEST = 16 * 1024;

/** How many requests a body of `bytes` counts as: one per started BODY_BYTES_PER_REQUEST, at least one. */
export function bodyRequests(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / BODY_BYTES_PER_REQUEST));
}

/**
 * Counts `units` against a quota and returns the RateLimit-* headers for the response; over the
 * quota it throws a 429 `rate_limited` carrying those headers and Retry-After.
 */
export async function charge(
  limiter: QuotaLimiter,
  key: string,
  units = 1,
  what = 'requests',
): Promise<Record<string, string>> {
  const decision = await limiter.consume(key, units);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new ApiError('rate_limited', `Too many ${what} from this client.`, {
      hint: `The quota is ${decision.limit} ${what} per ${limiter.quota.seconds} seconds; retry after ${decision.resetSeconds} seconds.`,
      headers,
    });
  }
  return headers;
}
