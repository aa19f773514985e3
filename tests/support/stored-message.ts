import { randomUUID } from 'node:crypto';
import type { Channel, NewMessage } from '../../functions/contact/message-store.ts';
import type { Storage } from '../../functions/state/storage.ts';

/** Stores a message as the contact service does (a claimed key, then the message with its answer); returns its id. */
export async function storeMessage(
  storage: Storage,
  message: NewMessage,
  channels: readonly Channel[],
  key: string = randomUUID(),
  now = Date.now(),
): Promise<number> {
  const ref = { scope: 'contact', sandbox: message.sandbox, key };
  const claim = await storage.idempotency.claim(ref, 60_000, now);
  if (claim.kind !== 'claimed') throw new Error(`key ${key} is ${claim.kind}`);
  const outcome = await storage.messages.storeSubmission(
    { ref, token: claim.token, message, channels, answer: { fingerprint: key, status: 200, body: '{}' } },
    now,
  );
  if (!outcome.stored) throw new Error(`message with key ${key} was not stored`);
  return outcome.id;
}
