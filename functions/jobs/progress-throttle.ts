/** A small step of progress is stored only when this long has passed since the last write... */
const MIN_INTERVAL_MS = 100;
/** ...while a step at least this large is stored at once. */
const MIN_STEP = 0.05;

/**
 * Decides which progress reports reach the database. A task may report after every item; writing
 * each would turn a fast loop into a stream of commits, so small, frequent steps are dropped.
 * Progress never goes backwards and stays within 0..1, and the end (1) is always written.
 */
export class ProgressThrottle {
  private stored = 0;
  private storedAt = -Infinity;

  constructor(
    private readonly write: (progress: number) => void,
    private readonly clock: () => number = Date.now,
  ) {}

  report(fraction: number): void {
    if (!Number.isFinite(fraction)) return;
    const progress = Math.min(1, Math.max(this.stored, fraction));
    if (progress === this.stored) return;
    const now = this.clock();
    if (progress < 1 && progress - this.stored < MIN_STEP && now - this.storedAt < MIN_INTERVAL_MS) return;
    this.write(progress);
    this.stored = progress;
    this.storedAt = now;
  }
}
