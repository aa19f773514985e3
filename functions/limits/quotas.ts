import type { Config } from '../config/env.ts';
import type { RateQuota } from '../config/rate-quota.ts';
import { MemoryLimiter, type QuotaLimiter } from './rate-limiter.ts';
import { RedisLimiter, RedisQuotaStore } from './redis-limiter.ts';

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
 * One limiter per tier and quota. Without REDIS_URL each is counted in this process; with it,
 * in Redis, shared by every instance, falling back to this process's count while Redis is down.
 */
export class QuotaBook {
  private readonly limiters: Record<Tier, Record<QuotaName, QuotaLimiter>>;
  private readonly redis: RedisQuotaStore | null;
  private readonly maxClients: number;

  /** The quotas of `config`, on a connection to its Redis when REDIS_URL is set. */
  static async open(config: Config): Promise<QuotaBook> {
    return new QuotaBook(config, config.redisUrl === null ? null : await RedisQuotaStore.open(config.redisUrl));
  }

  private constructor(config: Config, redis: RedisQuotaStore | null) {
    const table = quotaTable(config);
    this.redis = redis;
    this.maxClients = config.rateLimitMaxClients;
    const limiter = (tier: Tier, name: QuotaName) => this.counter(`quota:${tier}:${name}`, table[tier][name]);
    const build = (tier: Tier) => ({
      read: limiter(tier, 'read'),
      contact: limiter(tier, 'contact'),
      keys: limiter(tier, 'keys'),
    });
    this.limiters = { anonymous: build('anonymous'), test: build('test') };
  }

  /**
   * A count kept where the quotas are: in this process, or in Redis under `portfolio:<name>:`,
   * shared by every instance, falling back to this process's count while Redis is down. Each
   * published quota is one; the service keeps others of its own (messages per form token).
   */
  counter(name: string, quota: RateQuota): QuotaLimiter {
    const memory = new MemoryLimiter(quota, this.maxClients);
    return this.redis === null ? memory : new RedisLimiter(quota, `portfolio:${name}`, this.redis, memory);
  }

  /** Where quotas are counted, for the start-up log line. */
  get engine(): 'memory' | 'redis' {
    return this.redis === null ? 'memory' : 'redis';
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
