import type { KeyRef } from '../state/idempotency-store.ts';

/**
 * Idempotency keys whose first request is still running in this process (its body may still be
 * arriving). A second request with the same key meanwhile gets a 409. Kept in memory: a key in
 * flight has no outcome worth storing yet, and the record written with the outcome is what
 * keeps a message from being stored twice, here or in another process.
 */
export class InFlightKeys {
  private readonly keys = new Set<string>();

  /** Marks `ref` in flight; false when it already is. */
  enter(ref: KeyRef): boolean {
    const id = idOf(ref);
    if (this.keys.has(id)) return false;
    this.keys.add(id);
    return true;
  }

  leave(ref: KeyRef): void {
    this.keys.delete(idOf(ref));
  }
}

function idOf(ref: KeyRef): string {
  return `${ref.scope}\u0000${ref.sandbox ? 1 : 0}\u0000${ref.key}`;
}
