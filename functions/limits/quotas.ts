import type { Config } from '../config/env.ts';
import type { RateQuota } from '../config/rate-quota.ts';
import { MemoryLimiter, type QuotaLimiter } from './rate-limiter.ts';
import { RedisLimiter, RedisQuotaStore } from './redis-limiter.ts';
import type { SharedCounts } from './shared-counts.ts';

/** The quotas an operation can count against. */
export const QUOTA_NAMES = ['read', 'contact', 'keys'] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];

/** Quota tiers: anonymous callers, and callers with a valid test key or token. */
export const TIERS = ['anonymous', 'test'] as const;
export type Tier = (typeof TIERS)[number];

/** What the quotas need to know of a caller (http/request-context.ts resolves it per request). */
export interface QuotaHolder {
  tier: Tier;
  sandbox: boolean;
  /** The key when the caller has a valid one, else the client IP (its /64 for IPv6). */
  quotaKey: string;
  /** The client IP as quotas count it, whatever key the caller holds. */
  clientKey: string;
}

/**
 * Every quota by tier, from the configuration: the one table pricing.md, the OpenAPI text and
 * the limiters are all made from. Key creation is counted per IP whatever the tier.
 */
export function quotaTable(config: Config): Record<Tier, Record<QuotaName, RateQuota>> {
  return {
    anonymous: { read: config.readRateLimit, contact: config.contactRateLimit, keys: config.keysRateLimit },
    test: { read: config.testKeyReadRateLimit, contact: config.testKeyContactRateLimit, keys: config.keysRateLimit },
  };
}

/**
 * One limiter per tier and quota, each counted where its kind of count belongs:
 *
 * - `read` (every API request and MCP message) in Redis when REDIS_URL is set, else in this
 *   process: a read is served from the build and must not cost a database round trip.
 * - every other count (contact messages, key creations, messages per form token) in Redis when
 *   REDIS_URL is set, else in the shared storage when there is one (PostgreSQL: DATABASE_URL),
 *   else in this process. While Redis is down they fall back to the shared storage when there is
 *   one, so they stay exact across instances; otherwise, and for `read`, to this process's count,
 *   made only when first needed.
 */
export class QuotaBook {
  private readonly limiters: Record<Tier, Record<QuotaName, QuotaLimiter>>;
  private readonly redis: RedisQuotaStore | null;
  private readonly shared: SharedCounts | null;
  private readonly maxClients: number;

  /**
   * The quotas of `config`, on a connection to its Redis when REDIS_URL is set, and counting in
   * `shared` (the storage's counts on PostgreSQL) what belongs there.
   */
  static async open(config: Config, shared: SharedCounts | null = null): Promise<QuotaBook> {
    const whileDown = shared === null ? 'per instance' : `in ${shared.where} (reads per instance)`;
    const redis = config.redisUrl === null ? null : await RedisQuotaStore.open(config.redisUrl, whileDown);
    return new QuotaBook(config, redis, shared);
  }

  private constructor(config: Config, redis: RedisQuotaStore | null, shared: SharedCounts | null) {
    const table = quotaTable(config);
    this.redis = redis;
    this.shared = shared;
    this.maxClients = config.rateLimitMaxClients;
    const build = (tier: Tier) => ({
      read: this.place(`quota:${tier}:read`, table[tier].read, 'read'),
      contact: this.counter(`quota:${tier}:contact`, table[tier].contact),
      keys: this.counter(`quota:${tier}:keys`, table[tier].keys),
    });
    this.limiters = { anonymous: build('anonymous'), test: build('test') };
  }

  /**
   * A count kept where the quotas other than `read` are (see the class): under `<name>:` in
   * PostgreSQL, under `portfolio:<name>:` in Redis. Each published quota is one; the service
   * keeps others of its own (messages per form token).
   */
  counter(name: string, quota: RateQuota): QuotaLimiter {
    return this.place(name, quota, 'other');
  }

  private place(name: string, quota: RateQuota, kind: 'read' | 'other'): QuotaLimiter {
    const shared = kind === 'other' ? this.shared : null;
    const fallback = once(
      shared === null ? () => new MemoryLimiter(quota, this.maxClients) : () => shared.limiter(name, quota),
    );
    return this.redis === null ? fallback() : new RedisLimiter(quota, `portfolio:${name}`, this.redis, fallback);
  }

  /** Where quotas are counted, in words, for the start-up log line. */
  describe(): string {
    const where = this.shared?.where;
    if (this.redis === null)
      return where === undefined
        ? 'this instance only'
        : `reads this instance only; contact, keys and form tokens shared (${where})`;
    return where === undefined
      ? 'shared (Redis)'
      : `shared (Redis; contact, keys and form tokens in ${where} while Redis is down)`;
  }

  /** Resolves when the quotas can be counted where they are configured to be (see RedisQuotaStore). */
  ready(): Promise<void> {
    return this.redis === null ? Promise.resolve() : this.redis.firstConnection();
  }

  /** Gives back units charged for a request that turned out not to use the quota (a message not stored). */
  refund(holder: QuotaHolder, name: QuotaName, units: number): Promise<void> {
    const { limiter, key } = this.account(holder, name);
    return limiter.refund(key, units);
  }

  /**
   * Where a caller's units of a quota are counted. Keys are counted per client IP whatever key
   * the caller holds, so keys cannot be used to mint more keys faster; sandbox messages have
   * counters of their own, so testing never eats a visitor's message quota. A request's context
   * charges it (http/request-context.ts), since what is over a quota is answered in HTTP.
   */
  account(holder: QuotaHolder, name: QuotaName): { limiter: QuotaLimiter; key: string } {
    if (name === 'keys') return { limiter: this.limiters.anonymous.keys, key: holder.clientKey };
    const limiter = this.limiters[holder.tier][name];
    if (name === 'contact' && holder.sandbox) return { limiter, key: `sandbox:${holder.quotaKey}` };
    return { limiter, key: holder.quotaKey };
  }

  close(): void {
    this.redis?.close();
  }
}

/** `make`, called once, on first use. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
