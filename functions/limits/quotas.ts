import type { Config } from '../config/env.ts';
import type { RateQuota } from '../config/rate-quota.ts';
import type { Tier } from '../http/request-context.ts';
import { RateLimiter } from './rate-limiter.ts';

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

/** One limiter per tier and quota. */
export class QuotaBook {
  private readonly limiters: Record<Tier, Record<QuotaName, RateLimiter>>;

  constructor(config: Config) {
    const table = quotaTable(config);
    const build = (tier: Tier) => {
      const quotas = table[tier];
      return {
        read: new RateLimiter(quotas.read, config.rateLimitMaxClients),
        contact: new RateLimiter(quotas.contact, config.rateLimitMaxClients),
        keys: new RateLimiter(quotas.keys, config.rateLimitMaxClients),
      };
    };
    this.limiters = { anonymous: build('anonymous'), test: build('test') };
  }

  limiter(tier: Tier, name: QuotaName): RateLimiter {
    return this.limiters[tier][name];
  }
}
