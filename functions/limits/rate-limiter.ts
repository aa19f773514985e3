import type { RateQuota } from '../config/rate-quota.ts';
import { BoundedMap } from './bounded-map.ts';

/** The outcome of counting one request against a quota. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (RateLimit-Reset, draft-ietf-httpapi-ratelimit-headers). */
  resetSeconds: number;
}

/**
 * A value now, or the promise of one. A count kept in this process answers at once: on the read
 * path every awaited promise is a turn of the microtask queue and an allocation, per request.
 */
export type Eventually<T> = T | Promise<T>;

/** `next` of a value now, or once its promise settles (a rejection passes through). */
export function andThen<T, U>(value: Eventually<T>, next: (value: T) => Eventually<U>): Eventually<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * A quota counted somewhere: in this process (MemoryLimiter), or shared by every instance in
 * Redis (functions/limits/redis-limiter.ts) or in PostgreSQL (a SharedCounts engine,
 * functions/limits/shared-counts.ts). Asynchronous, because a shared count is a round trip.
 */
export interface QuotaLimiter {
  readonly quota: RateQuota;
  /** Counts `units` for `key` if the quota allows all of them; otherwise counts nothing. */
  consume(key: string, units?: number): Eventually<RateDecision>;
  /** The decision `consume(key, 0)` would give, without counting anything. */
  peek(key: string): Promise<RateDecision>;
  /** Gives back units counted for a request that turned out not to use the quota (e.g. a replay). */
  refund(key: string, units?: number): Promise<void>;
}

interface Window {
  used: number;
  resetsAt: number;
}

/**
 * Fixed-window counters per client key in this process. Memory is bounded by `maxClients`: the
 * least recently seen client is forgotten first, so a flood of distinct addresses cannot grow
 * the process, and nothing is allocated before the first client is counted (BoundedMap).
 * Counting is synchronous, so concurrent requests in one process are counted exactly; the
 * promises of `peek` and `refund` only give it the shape of a shared limiter.
 */
export class MemoryLimiter implements QuotaLimiter {
  readonly quota: RateQuota;
  private readonly windows: BoundedMap<string, Window>;
  private readonly now: () => number;

  constructor(quota: RateQuota, maxClients: number, now: () => number = Date.now) {
    this.quota = quota;
    this.windows = new BoundedMap(maxClients);
    this.now = now;
  }

  consume(key: string, units = 1): RateDecision {
    return this.count(key, units);
  }

  peek(key: string): Promise<RateDecision> {
    return Promise.resolve(this.count(key, 0));
  }

  refund(key: string, units = 1): Promise<void> {
    const window = this.windows.get(key);
    if (window !== undefined && window.resetsAt > this.now()) window.used = Math.max(0, window.used - units);
    return Promise.resolve();
  }

  private count(key: string, units: number): RateDecision {
    const now = this.now();
    let window = this.windows.get(key);
    if (window === undefined || window.resetsAt <= now) {
      // A window starts with its first unit counted, as in Redis: a peek starts none.
      if (units === 0) return this.fresh();
      window = { used: 0, resetsAt: now + this.quota.seconds * 1000 };
      this.windows.set(key, window);
    }
    const allowed = window.used + units <= this.quota.count;
    if (allowed) window.used += units;
    return {
      allowed,
      limit: this.quota.count,
      remaining: this.quota.count - window.used,
      resetSeconds: Math.max(1, Math.ceil((window.resetsAt - now) / 1000)),
    };
  }

  private fresh(): RateDecision {
    return { allowed: true, limit: this.quota.count, remaining: this.quota.count, resetSeconds: this.quota.seconds };
  }
}

/** RateLimit-* headers for a decision; a refused request also gets Retry-After (RFC 9110 section 10.2.3). */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) headers['retry-after'] = String(decision.resetSeconds);
  return headers;
}
