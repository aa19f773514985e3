import { LRUCache } from 'lru-cache';
import type { RateQuota } from '../config/rate-quota.ts';

/** The outcome of counting one request against a quota. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (RateLimit-Reset, draft-ietf-httpapi-ratelimit-headers). */
  resetSeconds: number;
}

interface Window {
  used: number;
  resetsAt: number;
}

/**
 * Fixed-window counters per client key. Memory is bounded by `maxClients`: the least recently
 * seen client is forgotten first, so a flood of distinct addresses cannot grow the process.
 * Counting is synchronous, so concurrent requests in one process are counted exactly.
 */
export class RateLimiter {
  readonly quota: RateQuota;
  private readonly windows: LRUCache<string, Window>;
  private readonly now: () => number;

  constructor(quota: RateQuota, maxClients: number, now: () => number = Date.now) {
    this.quota = quota;
    this.windows = new LRUCache({ max: maxClients });
    this.now = now;
  }

  /** Counts `units` requests for `key` if the quota allows all of them; otherwise counts nothing. */
  consume(key: string, units = 1): RateDecision {
    const now = this.now();
    let window = this.windows.get(key);
    if (window === undefined || window.resetsAt <= now) {
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

  /** The decision `consume(key, 0)` would give, without counting anything. */
  peek(key: string): RateDecision {
    return this.consume(key, 0);
  }

  /** Gives back units counted for a request that turned out not to use the quota (e.g. a replay). */
  refund(key: string, units = 1): void {
    const window = this.windows.get(key);
    if (window !== undefined && window.resetsAt > this.now()) window.used = Math.max(0, window.used - units);
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
