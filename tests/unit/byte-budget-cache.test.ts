import { describe, expect, it } from 'vitest';
import { ByteBudgetCache } from '../../functions/limits/byte-budget-cache.ts';
import { ConcurrencyLimit } from '../../functions/limits/concurrency-limit.ts';

const bytes = (n: number) => Buffer.alloc(n, 1);

describe('ByteBudgetCache', () => {
  it('holds at most its budget in bytes, whatever is put in', () => {
    const cache = new ByteBudgetCache<number>(1000, 300);
    for (let key = 0; key < 500; key += 1) {
      cache.set(key, bytes(1 + ((key * 37) % 300)));
      expect(cache.bytes).toBeLessThanOrEqual(1000);
    }
    expect(cache.size).toBeGreaterThan(0);
  });

  it('never holds an entry over its largest size', () => {
    const cache = new ByteBudgetCache<string>(1000, 300);
    cache.set('big', bytes(301));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.fits(300)).toBe(true);
    expect(cache.fits(301)).toBe(false);
  });

  it('keeps what was asked for lately and forgets the rest first', () => {
    const cache = new ByteBudgetCache<string>(300);
    cache.set('a', bytes(100));
    cache.set('b', bytes(100));
    cache.set('c', bytes(100));
    expect(cache.get('a')).toBeDefined();
    cache.set('d', bytes(100));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    // A hot entry survives a scan of entries asked for once.
    for (const key of ['e', 'f']) {
      cache.set(key, bytes(100));
      cache.get('a');
    }
    expect(cache.get('a')).toBeDefined();
    expect(cache.bytes).toBe(300);
  });

  it('counts a replaced entry once', () => {
    const cache = new ByteBudgetCache<string>(300);
    cache.set('a', bytes(100));
    cache.set('a', bytes(200));
    expect(cache.bytes).toBe(200);
    expect(cache.size).toBe(1);
  });
});

describe('ConcurrencyLimit', () => {
  it('runs at most its limit at once, and every task in the end, failures included', async () => {
    const limit = new ConcurrencyLimit(3);
    let running = 0;
    let most = 0;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        limit.run(async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 1 + (i % 3)));
          running -= 1;
          if (i % 5 === 0) throw new Error(`task ${i}`);
          return i;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(16);
    expect(limit.active).toBe(0);
  });
});
