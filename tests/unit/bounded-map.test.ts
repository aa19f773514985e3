import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../functions/limits/bounded-map.ts';
import { MemoryLimiter } from '../../functions/limits/rate-limiter.ts';

describe('BoundedMap', () => {
  it('holds at most its bound, forgetting the least recently seen entry first', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c', 'd', 'e'].entries()) map.set(key, i);
    expect(map.size).toBe(3);
    expect([...map.keys()]).toEqual(['c', 'd', 'e']);
    expect([map.get('a'), map.get('b')]).toEqual([undefined, undefined]);
  });

  it('counts a read or a write as a sighting: the entry seen last goes last', () => {
    const map = new BoundedMap<string, number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.get('a')).toBe(1);
    map.set('b', 20);
    expect([...map.keys()]).toEqual(['c', 'a', 'b']);
    map.set('d', 4);
    expect([...map.keys()]).toEqual(['a', 'b', 'd']);
    expect(map.get('b')).toBe(20);
    // A miss moves nothing.
    expect(map.get('c')).toBeUndefined();
    expect([...map.keys()]).toEqual(['a', 'd', 'b']);
  });

  it('refuses a bound that keeps nothing', () => {
    for (const max of [0, -1, 1.5, Number.NaN]) expect(() => new BoundedMap(max)).toThrow(RangeError);
  });

  it('allocates nothing up front: seven limiters of the default bound hold no ArrayBuffer memory', () => {
    // lru-cache preallocated typed arrays from its bound: seven limiters of 100,000 (the service's
    // quotas) took 8.4 MB of ArrayBuffer memory, and 11 MB of heap, before the first count.
    // Memory, not time, so the machine's load cannot sway it.
    const before = process.memoryUsage().arrayBuffers;
    const limiters = Array.from({ length: 7 }, () => new MemoryLimiter({ count: 60, seconds: 60 }, 100_000));
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(limiters).toHaveLength(7);
    expect(grown).toBeLessThan(64 * 1024);
  });
});

describe('MemoryLimiter on a BoundedMap', () => {
  it('forgets the least recently seen client, not the least recently started one', async () => {
    const limiter = new MemoryLimiter({ count: 1, seconds: 60 }, 2, () => 1_000_000);
    await limiter.consume('first');
    await limiter.consume('second');
    // Seen again (a refusal), so 'second' is now the least recently seen.
    expect((await limiter.consume('first')).allowed).toBe(false);
    await limiter.consume('third');
    expect((await limiter.consume('first')).allowed).toBe(false);
    expect((await limiter.consume('second')).allowed).toBe(true);
  });
});

describe('BoundedMap reads of the newest key', () => {
  it('keeps the recency order whether the key read was already the newest or not', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    // 'b' is the newest: reading it again and again changes nothing.
    expect(map.get('b')).toBe(2);
    expect(map.get('b')).toBe(2);
    expect([...map.keys()]).toEqual(['a', 'b']);
    expect(map.get('a')).toBe(1);
    expect([...map.keys()]).toEqual(['b', 'a']);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect([...map.keys()]).toEqual(['a', 'c']);
    expect(map.get('b')).toBeUndefined();
    // A missed read leaves 'c' the newest; 'a' read moves it up, and 'c' goes next.
    expect(map.get('a')).toBe(1);
    map.set('d', 4);
    expect([...map.keys()]).toEqual(['a', 'd']);
  });
});
