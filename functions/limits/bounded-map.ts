/**
 * A Map that keeps at most `max` entries, forgetting the least recently seen first: a read or a
 * write moves an entry to the end (a JavaScript Map iterates in insertion order), and a write
 * past the bound drops the first. Unlike lru-cache, which preallocates its arrays from `max`
 * (with a bound of 100,000, milliseconds of CPU and megabytes before the first entry), it holds
 * only what was put in it, so a limiter costs nothing until it counts.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  /**
   * The most recently seen key, which needs no moving: a busy client is usually seen again before
   * anyone else, and moving an entry (a delete and a set) leaves the Map's table to be rebuilt.
   */
  private newest: K | undefined;

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`A bound of ${max} entries keeps nothing`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value at `key`, which becomes the most recently seen. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined && key !== this.newest) {
      this.newest = key;
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Sets `key` as the most recently seen; past the bound, the least recently seen entry goes. */
  set(key: K, value: V): void {
    this.newest = key;
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
  }

  /** The keys, least recently seen first. */
  keys(): IterableIterator<K> {
    return this.entries.keys();
  }
}
