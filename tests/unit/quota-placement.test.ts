import { describe, expect, it } from 'vitest';
import type { RateQuota } from '../../functions/config/rate-quota.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { QuotaBook, type QuotaHolder } from '../../functions/limits/quotas.ts';
import { MemoryLimiter, type QuotaLimiter } from '../../functions/limits/rate-limiter.ts';
import type { SharedCounts } from '../../functions/limits/shared-counts.ts';

/** Shared counts that record the names they were asked for, counting in memory. */
function recordingCounts(): SharedCounts & { names: string[] } {
  const names: string[] = [];
  return {
    where: 'PostgreSQL',
    names,
    limiter(name: string, quota: RateQuota): QuotaLimiter {
      names.push(name);
      return new MemoryLimiter(quota, 100);
    },
    purgeExpired: () => Promise.resolve(0),
  };
}

const holder: QuotaHolder = { tier: 'anonymous', sandbox: false, quotaKey: '192.0.2.1', clientKey: '192.0.2.1' };

describe('where QuotaBook counts each quota without Redis', () => {
  it('counts everything in this process without shared counts (SQLite)', async () => {
    const book = await QuotaBook.open(loadConfig({}));
    expect(book.describe()).toBe('this instance only');
    for (const name of ['read', 'contact', 'keys'] as const)
      expect(book.account(holder, name).limiter).toBeInstanceOf(MemoryLimiter);
    expect(book.counter('form-token', { count: 3, seconds: 60 })).toBeInstanceOf(MemoryLimiter);
  });

  it('counts contact, keys and form tokens in the shared counts, and reads in this process', async () => {
    const counts = recordingCounts();
    const book = await QuotaBook.open(loadConfig({}), counts);
    expect(book.describe()).toBe('reads this instance only; contact, keys and form tokens shared (PostgreSQL)');
    book.counter('form-token', { count: 3, seconds: 60 });
    expect(counts.names.sort()).toEqual([
      'form-token',
      'quota:anonymous:contact',
      'quota:anonymous:keys',
      'quota:test:contact',
      'quota:test:keys',
    ]);
    // The read quota's limiter is this process's, not one the shared counts made.
    expect(book.account(holder, 'read').limiter).toBeInstanceOf(MemoryLimiter);
    expect(counts.names.some((name) => name.endsWith(':read'))).toBe(false);
  });
});
