import { randomUUID } from 'node:crypto';
import type { KeyRef } from '../../contact/idempotency-store.ts';

/**
 * Idempotency keys whose first request is still running in this process (its body may still be
 * arriving), each with its claim's token. On SQLite one process owns DATA_DIR, so a claim needs no
 * row: a key in flight has no outcome worth storing yet, a body that fails validation then costs
 * no write at all, and the claims end with the process that held them.
 */
export class InFlightKeys {
  private readonly tokens = new Map<string, string>();

  /** Claims `ref`; its token, or null when the key is already in flight. */
  enter(ref: KeyRef): string | null {
    const id = idOf(ref);
    if (this.tokens.has(id)) return null;
    const token = randomUUID();
    this.tokens.set(id, token);
    return token;
  }

  /** Ends the claim if it is still `token`'s. */
  leave(ref: KeyRef, token: string): void {
    const id = idOf(ref);
    if (this.tokens.get(id) === token) this.tokens.delete(id);
  }

  /** Whether `token` still holds `ref`. */
  holds(ref: KeyRef, token: string): boolean {
    return this.tokens.get(idOf(ref)) === token;
  }
}

function idOf(ref: KeyRef): string {
  return `${ref.scope}\u0000${ref.sandbox ? 1 : 0}\u0000${ref.key}`;
}
