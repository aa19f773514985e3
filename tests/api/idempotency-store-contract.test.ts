import { afterAll, describe, expect, it } from 'vitest';
import type { Channel, Submission } from '../../functions/contact/message-store.ts';
import type { KeyRef, RecordedAnswer } from '../../functions/contact/idempotency-store.ts';
import type { Storage } from '../../functions/state/storage.ts';
import { closeOpened, CONTRACT_TTL_MS, STORE_ENGINES } from '../support/store-engines.ts';

/**
 * One contract for Idempotency-Key claims and the message they record, run against each engine:
 * one claimer per key, the recorded answer replayed, a claim that lapses or is released, and a
 * holder that lost its claim unable to commit. Each test opens a storage of its own.
 */
const T = 1_800_000_000_000;

const answer = (text: string): RecordedAnswer => ({ fingerprint: `fp-${text}`, status: 201, body: `{"m":"${text}"}` });
const ref = (key: string, sandbox = false): KeyRef => ({ scope: 'contact:192.0.2.1', sandbox, key });
const submission = (key: KeyRef, token: string, channels: readonly Channel[] = ['webhook']): Submission => ({
  ref: key,
  token,
  message: { sandbox: key.sandbox, name: 'Ada', email: 'ada@example.com', message: `About ${key.key}` },
  channels,
  answer: answer(key.key),
});

afterAll(closeOpened);

describe.each(STORE_ENGINES)('Idempotency-Key claims and their messages on $name', ({ skip, claimsLapse, open }) => {
  async function claimed(storage: Storage, key: KeyRef, leaseMs: number, now: number): Promise<string> {
    const claim = await storage.idempotency.claim(key, leaseMs, now);
    if (claim.kind !== 'claimed') throw new Error(`expected a claim of ${key.key}, got ${claim.kind}`);
    return claim.token;
  }

  it.skipIf(skip)('gives a key to one claimer, records its answer once, and replays it until it expires', async () => {
    const storage = await open();
    const key = ref('once');
    const token = await claimed(storage, key, 30_000, T);
    expect(await storage.idempotency.claim(key, 30_000, T + 1)).toEqual({ kind: 'in_flight' });
    const stored = await storage.messages.storeSubmission(submission(key, token), T + 2);
    expect(stored.stored).toBe(true);
    expect(await storage.idempotency.claim(key, 30_000, T + 3)).toEqual({ kind: 'recorded', answer: answer('once') });
    // A second commit under the same claim is refused and shown the answer already recorded.
    expect(await storage.messages.storeSubmission(submission(key, token), T + 4)).toEqual({
      stored: false,
      earlier: answer('once'),
    });
    expect(await storage.messages.list({ sandbox: false })).toHaveLength(1);
    // The same key in another scope or mode is another key.
    expect((await storage.idempotency.claim({ ...key, scope: 'contact:192.0.2.2' }, 30_000, T + 5)).kind).toBe(
      'claimed',
    );
    expect((await storage.idempotency.claim(ref('once', true), 30_000, T + 6)).kind).toBe('claimed');
    // Once the answer expired, the key is free again, and the purge drops the expired answer.
    expect((await storage.idempotency.claim(key, 30_000, T + 2 + CONTRACT_TTL_MS)).kind).toBe('claimed');
    expect(await storage.idempotency.purge(T + 2 + CONTRACT_TTL_MS)).toBeGreaterThanOrEqual(1);
  });

  it.skipIf(skip)('frees a claim on release by its holder only', async () => {
    const storage = await open();
    const key = ref('release', true);
    const first = await claimed(storage, key, 1000, T);
    await storage.idempotency.release(key, 'someone-else');
    expect(await storage.idempotency.claim(key, 1000, T + 1)).toEqual({ kind: 'in_flight' });
    await storage.idempotency.release(key, first);
    const second = await claimed(storage, key, 1000, T + 2);
    // The released holder can no longer commit; the new one can.
    expect(await storage.messages.storeSubmission(submission(key, first), T + 3)).toEqual({ stored: false });
    expect((await storage.messages.storeSubmission(submission(key, second, []), T + 4)).stored).toBe(true);
    const [message] = await storage.messages.list({ sandbox: true });
    expect(message).toMatchObject({ sandbox: true, createdAt: T + 4, deliveries: {} });
  });

  it.skipIf(skip || !claimsLapse)(
    'frees a claim after its lease, when the old holder can no longer commit',
    async () => {
      const storage = await open();
      const key = ref('lease');
      const first = await claimed(storage, key, 1000, T);
      expect(await storage.idempotency.claim(key, 1000, T + 999)).toEqual({ kind: 'in_flight' });
      const second = await claimed(storage, key, 1000, T + 1000);
      expect(await storage.messages.storeSubmission(submission(key, first), T + 1001)).toEqual({ stored: false });
      expect((await storage.messages.storeSubmission(submission(key, second), T + 1002)).stored).toBe(true);
      expect(await storage.messages.storeSubmission(submission(key, first), T + 1003)).toEqual({
        stored: false,
        earlier: answer('lease'),
      });
    },
  );
});
