import type { Config } from '../config/env.ts';
import type { RateQuota } from '../config/rate-quota.ts';
import type { Tier } from '../http/request-context.ts';
import { MemoryLimiter, type QuotaLimiter } from './rate-limiter.ts';
import { RedisLimiter, RedisQuotaStore } from './redis-limiter.ts';

/** The quotas an operation can count against. */
export const QUOTA_NAMES = ['read', 'contact', 'keys'] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];

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

  constructor(config: Config) {
    const table = quotaTable(config);
    this.redis = config.redisUrl === null ? null : new RedisQuotaStore(config.redisUrl);
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

  limiter(tier: Tier, name: QuotaName): QuotaLimiter {
    return this.limiters[tier][name];
  }

  close(): void {
    this.redis?.close();
  }
}
