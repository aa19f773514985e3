import { ApiError } from '../http/api-error.ts';
import { rateLimitHeaders, type QuotaLimiter } from './rate-limiter.ts';

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
