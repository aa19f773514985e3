/**
 * Values kept in memory up to a budget of bytes (byte strings by default; `sizeOf` says what
 * another kind of value holds), forgetting those not asked for lately
 * first. Eviction is the "second chance" (clock) approximation of least-recently-used: a hit only
 * marks its entry as seen, so the hot path costs one Map lookup and one boolean write, never a
 * reordering; making room walks the entries from the oldest, moves a seen one to the end (and
 * clears its mark), and drops the first one not seen since the last walk.
 */
export class ByteBudgetCache<K, V = Buffer> {
  private readonly entries = new Map<K, { value: V; bytes: number; seen: boolean }>();
  private held = 0;

  /**
   * @param budget the most bytes held at once
   * @param entryMax the largest entry kept; a larger one is never held (it would push out many hot ones)
   * @param sizeOf the bytes a value holds
   */
  constructor(
    readonly budget: number,
    readonly entryMax: number = budget,
    private readonly sizeOf: (value: V) => number = (value) => (value as Buffer).length,
  ) {
    if (!Number.isSafeInteger(budget) || budget < 1) throw new RangeError(`A budget of ${budget} bytes keeps nothing`);
  }

  /** The bytes held now, at most `budget`. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value at `key`, if held; it counts as seen. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.seen = true;
    return entry.value;
  }

  /** Whether `bytes` are small enough to be held at all. */
  fits(bytes: number): boolean {
    return bytes <= this.entryMax && bytes <= this.budget;
  }

  /** Holds `value` at `key` if it fits, making room by dropping the entries least recently seen. */
  set(key: K, value: V): void {
    const bytes = this.sizeOf(value);
    if (!this.fits(bytes)) return;
    this.delete(key);
    while (this.held + bytes > this.budget) this.evictOne();
    this.entries.set(key, { value, bytes, seen: false });
    this.held += bytes;
  }

  private delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.held -= entry.bytes;
  }

  /** Drops the oldest entry not seen since the last walk; each seen one met on the way gets a second chance. */
  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      if (entry.seen) {
        // Past the end of the walk, which ends after at most one pass: every mark is then cleared.
        entry.seen = false;
        this.entries.delete(key);
        this.entries.set(key, entry);
        continue;
      }
      this.entries.delete(key);
      this.held -= entry.bytes;
      return;
    }
  }
}
