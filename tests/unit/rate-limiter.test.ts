import { describe, expect, it } from 'vitest';
import { MemoryLimiter, rateLimitHeaders } from '../../functions/limits/rate-limiter.ts';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('MemoryLimiter', () => {
  it('allows exactly the quota in a window, then refuses with remaining 0', async () => {
    const time = clock();
    const limiter = new MemoryLimiter({ count: 3, seconds: 60 }, 100, time.now);
    for (let i = 0; i < 3; i++) expect((await limiter.consume('a')).allowed).toBe(true);
    const refused = await limiter.consume('a');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 3, resetSeconds: 60 });
  });

  it('counts clients apart and resets after the window', async () => {
    const time = clock();
    const limiter = new MemoryLimiter({ count: 1, seconds: 10 }, 100, time.now);
    expect((await limiter.consume('a')).allowed).toBe(true);
    expect((await limiter.consume('b')).allowed).toBe(true);
    expect((await limiter.consume('a')).allowed).toBe(false);
    time.advance(9_500);
    expect((await limiter.consume('a')).resetSeconds).toBe(1);
    time.advance(500);
    expect(await limiter.consume('a')).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 10 });
  });

  it('refuses a multi-unit request that does not fit, counting nothing', async () => {
    const limiter = new MemoryLimiter({ count: 5, seconds: 60 }, 100);
    expect((await limiter.consume('a', 4)).remaining).toBe(1);
    expect((await limiter.consume('a', 2)).allowed).toBe(false);
    expect(await limiter.consume('a', 1)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('gives back refunded units', async () => {
    const limiter = new MemoryLimiter({ count: 2, seconds: 60 }, 100);
    await limiter.consume('a');
    await limiter.consume('a');
    await limiter.refund('a');
    expect((await limiter.consume('a')).allowed).toBe(true);
  });

  it('tracks at most maxClients clients', async () => {
    const limiter = new MemoryLimiter({ count: 1, seconds: 60 }, 100);
    for (let i = 0; i < 1000; i++) await limiter.consume(`client-${i}`);
    // The oldest client was forgotten, so it starts a fresh window.
    expect((await limiter.consume('client-0')).allowed).toBe(true);
    expect((await limiter.consume('client-999')).allowed).toBe(false);
  });

  it('renders integer headers, with Retry-After only when refused', () => {
    expect(rateLimitHeaders({ allowed: true, limit: 5, remaining: 4, resetSeconds: 60 })).toEqual({
      'ratelimit-limit': '5',
      'ratelimit-remaining': '4',
      'ratelimit-reset': '60',
    });
    expect(rateLimitHeaders({ allowed: false, limit: 5, remaining: 0, resetSeconds: 7 })['retry-after']).toBe('7');
  });
});
