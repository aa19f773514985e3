import { AsyncLocalStorage } from 'node:async_hooks';
import type { ConnectionSlots } from '../../state/storage.ts';

type Slot = Map<object, { close(): Promise<void> }>;

/**
 * Each request's connections on workerd, which refuses I/O on a connection opened by another
 * request ("Cannot perform I/O on behalf of a different request": Cloudflare docs, "Workers
 * errors"). A request runs in a slot of its own (AsyncLocalStorage, under nodejs_compat), so the
 * work it starts, its `waitUntil` work included, finds the connections it opened there and
 * nobody else's; closing the slot closes them.
 */
export class RequestSlots implements ConnectionSlots {
  private readonly slots = new AsyncLocalStorage<Slot>();

  current(): Slot | undefined {
    return this.slots.getStore();
  }

  /** Runs `work` in a new slot; the returned `close` ends every connection the slot holds. */
  run<T>(work: () => T): { result: T; close(): Promise<void> } {
    const slot: Slot = new Map();
    const result = this.slots.run(slot, work);
    return {
      result,
      close: async () => {
        const held = [...slot.values()];
        slot.clear();
        await Promise.allSettled(held.map((connection) => connection.close()));
      },
    };
  }
}
