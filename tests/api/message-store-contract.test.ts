import { afterAll, describe, expect, it } from 'vitest';
import type { Channel, NewMessage } from '../../functions/contact/message-store.ts';
import type { Storage } from '../../functions/state/storage.ts';
import { closeOpened, STORE_ENGINES } from '../support/store-engines.ts';
import { storeMessage } from '../support/stored-message.ts';

/**
 * One contract for the inbox and its outbox, run against each engine: what the owner lists, and
 * how each delivery to a channel is claimed, attempted, retried, given up and queued again, must
 * not depend on where the messages are kept. Each test opens a storage of its own.
 */
const T = 1_800_000_000_000;
const MINUTE = 60_000;

const live = (text: string, extra: Partial<NewMessage> = {}): NewMessage => ({
  sandbox: false,
  name: 'Ada',
  email: 'ada@example.com',
  message: text,
  ...extra,
});
const spam = (text: string): NewMessage => live(text, { folder: 'spam', spamReasons: ['link-heavy', 'too-fast'] });
const sandbox = (text: string): NewMessage => live(text, { sandbox: true });

afterAll(closeOpened);

describe.each(STORE_ENGINES)('the message store on $name', ({ skip, open, instances, claimsLapse }) => {
  /** Stores `message` at `now` for `channels`; its id. */
  const store = (storage: Storage, message: NewMessage, now: number, channels: readonly Channel[] = []) =>
    storeMessage(storage, message, channels, undefined, now);
  const ids = (messages: { id: number }[]) => messages.map((message) => message.id);

  it.skipIf(skip)('lists each mode and folder apart, newest first, with every field as stored', async () => {
    const storage = await open();
    const first = await store(storage, live('first'), T, ['webhook', 'email']);
    const second = await store(storage, live('second'), T + 1);
    const sameTime = await store(storage, live('same time'), T + 1);
    const junk = await store(storage, spam('junk'), T + 2);
    const test = await store(storage, sandbox('test'), T + 3);

    const inbox = await storage.messages.list({ sandbox: false });
    expect(ids(inbox)).toEqual([sameTime, second, first]);
    expect(inbox[2]).toEqual({
      id: first,
      sandbox: false,
      name: 'Ada',
      email: 'ada@example.com',
      message: 'first',
      folder: 'inbox',
      spamReasons: [],
      createdAt: T,
      readAt: null,
      deliveries: {
        webhook: { state: 'pending', attempts: 0, nextAt: T, lastError: null },
        email: { state: 'pending', attempts: 0, nextAt: T, lastError: null },
      },
    });
    expect(await storage.messages.list({ sandbox: false, folder: 'spam' })).toEqual([
      expect.objectContaining({ id: junk, folder: 'spam', spamReasons: ['link-heavy', 'too-fast'], deliveries: {} }),
    ]);
    expect(await storage.messages.list({ sandbox: true })).toEqual([
      expect.objectContaining({ id: test, sandbox: true, folder: 'inbox', deliveries: {} }),
    ]);
    expect(await storage.messages.list({ sandbox: true, folder: 'spam' })).toEqual([]);
    expect(ids(await storage.messages.list({ sandbox: false, since: T + 1 }))).toEqual([sameTime, second]);
    expect(ids(await storage.messages.list({ sandbox: false, limit: 2 }))).toEqual([sameTime, second]);
  });

  it.skipIf(skip)('marks messages read once, and lists only the unread when asked', async () => {
    const storage = await open();
    const first = await store(storage, live('first'), T);
    const second = await store(storage, live('second'), T + 1);
    expect(await storage.messages.markRead([first, 999_999], T + 10)).toBe(1);
    expect(await storage.messages.markRead([first, second], T + 20)).toBe(1);
    expect(await storage.messages.markRead([first, second], T + 30)).toBe(0);
    const listed = await storage.messages.list({ sandbox: false });
    expect(listed.map((message) => [message.id, message.readAt])).toEqual([
      [second, T + 20],
      [first, T + 10],
    ]);
    const third = await store(storage, live('third'), T + 40);
    expect(ids(await storage.messages.list({ sandbox: false, unreadOnly: true }))).toEqual([third]);
  });

  it.skipIf(skip)(
    'claims due deliveries of one channel, the oldest first and at most the limit, hidden until the claim ends',
    async () => {
      const storage = await open();
      const first = await store(storage, live('first'), T, ['webhook']);
      const second = await store(storage, live('second'), T + 1, ['webhook', 'email']);
      const third = await store(storage, live('third'), T + 2, ['webhook']);
      expect(await storage.messages.nextDeliveryAt('webhook')).toBe(T);
      expect(await storage.messages.nextDeliveryAt('email')).toBe(T + 1);
      // Not due yet.
      expect(await storage.messages.claimDue('webhook', T - 1, 10, MINUTE)).toEqual([]);

      const claimed = await storage.messages.claimDue('webhook', T + 1, 10, MINUTE);
      expect(claimed).toEqual([
        { message: expect.objectContaining({ id: first, message: 'first', folder: 'inbox' }), attempts: 0 },
        { message: expect.objectContaining({ id: second, message: 'second' }), attempts: 0 },
      ]);
      expect(claimed[0]?.message).not.toHaveProperty('deliveries');
      // Claimed deliveries stay hidden for the claim; the others stay due, the other channel's too.
      expect(await storage.messages.nextDeliveryAt('webhook')).toBe(T + 2);
      const [rest] = await storage.messages.claimDue('webhook', T + 100, 1, MINUTE);
      expect(rest?.message.id).toBe(third);
      expect(await storage.messages.claimDue('webhook', T + 100, 10, MINUTE)).toEqual([]);
      expect(ids((await storage.messages.claimDue('email', T + 100, 10, MINUTE)).map((due) => due.message))).toEqual([
        second,
      ]);
      // A claimer that died leaves them due again once the claim ends.
      expect(await storage.messages.nextDeliveryAt('webhook')).toBe(T + 1 + MINUTE);
      expect(await storage.messages.claimDue('webhook', T + MINUTE, 10, MINUTE)).toEqual([]);
      const again = await storage.messages.claimDue('webhook', T + 1 + MINUTE, 10, MINUTE);
      expect(again.map((due) => due.message.id)).toEqual([first, second]);
    },
  );

  it.skipIf(skip)('records a delivery, a failure with a retry, and a failure that gives up', async () => {
    const storage = await open();
    const delivered = await store(storage, live('delivered'), T, ['webhook']);
    const retried = await store(storage, live('retried'), T, ['webhook']);
    const givenUp = await store(storage, live('given up'), T, ['webhook', 'email']);
    await storage.messages.claimDue('webhook', T, 10, MINUTE);

    await storage.messages.recordFailure(delivered, 'webhook', 'connection refused', T + 10);
    await storage.messages.recordDelivery(delivered, 'webhook');
    await storage.messages.recordFailure(retried, 'webhook', 'HTTP 503', T + 500);
    await storage.messages.recordFailure(givenUp, 'webhook', 'x'.repeat(600), null);

    const deliveries = new Map(
      (await storage.messages.list({ sandbox: false })).map((message) => [message.id, message.deliveries]),
    );
    expect(deliveries.get(delivered)).toEqual({
      webhook: { state: 'delivered', attempts: 2, nextAt: null, lastError: null },
    });
    expect(deliveries.get(retried)).toEqual({
      webhook: { state: 'pending', attempts: 1, nextAt: T + 500, lastError: 'HTTP 503' },
    });
    // The last error is kept to its first 500 characters; the other channel is untouched.
    expect(deliveries.get(givenUp)).toEqual({
      webhook: { state: 'failed', attempts: 1, nextAt: null, lastError: 'x'.repeat(500) },
      email: { state: 'pending', attempts: 0, nextAt: T, lastError: null },
    });
    // Only the retry is due again, with its attempts counted; delivered and failed ones never are.
    expect(await storage.messages.nextDeliveryAt('webhook')).toBe(T + 500);
    expect(await storage.messages.claimDue('webhook', T + 10 * MINUTE, 10, MINUTE)).toEqual([
      { message: expect.objectContaining({ id: retried }), attempts: 1 },
    ]);
    await storage.messages.recordDelivery(retried, 'webhook');
    expect(await storage.messages.nextDeliveryAt('webhook')).toBeNull();
  });

  it.skipIf(skip)(
    'queues live inbox messages again: a failed delivery starts over, a missing one is made, others stay',
    async () => {
      const storage = await open();
      const failed = await store(storage, live('failed'), T, ['webhook']);
      const delivered = await store(storage, live('delivered'), T, ['webhook']);
      const pending = await store(storage, live('pending'), T, ['webhook']);
      const junk = await store(storage, spam('junk'), T);
      const test = await store(storage, sandbox('test'), T);
      await storage.messages.recordFailure(failed, 'webhook', 'HTTP 500', null);
      await storage.messages.recordDelivery(delivered, 'webhook');

      const queued = await storage.messages.requeue(
        [failed, delivered, pending, junk, test, 999_999],
        ['webhook', 'email'],
        T + 100,
      );
      expect(queued).toEqual([
        { id: failed, channel: 'webhook', was: 'failed' },
        { id: failed, channel: 'email', was: null },
        { id: delivered, channel: 'email', was: null },
        { id: pending, channel: 'email', was: null },
      ]);
      const deliveries = new Map(
        (await storage.messages.list({ sandbox: false })).map((message) => [message.id, message.deliveries]),
      );
      const fresh = { state: 'pending', attempts: 0, nextAt: T + 100, lastError: null };
      expect(deliveries.get(failed)).toEqual({ webhook: fresh, email: fresh });
      expect(deliveries.get(delivered)).toEqual({
        webhook: { state: 'delivered', attempts: 1, nextAt: null, lastError: null },
        email: fresh,
      });
      expect(deliveries.get(pending)).toEqual({
        webhook: { state: 'pending', attempts: 0, nextAt: T, lastError: null },
        email: fresh,
      });
      expect((await storage.messages.list({ sandbox: false, folder: 'spam' }))[0]?.deliveries).toEqual({});
      expect((await storage.messages.list({ sandbox: true }))[0]?.deliveries).toEqual({});
      // Queued once: a second requeue finds nothing failed or missing.
      expect(await storage.messages.requeue([failed], ['webhook', 'email'], T + 200)).toEqual([]);
    },
  );

  it.skipIf(skip)(
    'moves live spam to the inbox with its reasons, queued for delivery, and says which moved',
    async () => {
      const storage = await open();
      const first = await store(storage, spam('first'), T);
      const second = await store(storage, spam('second'), T + 1);
      const kept = await store(storage, spam('kept'), T + 2);
      const inboxed = await store(storage, live('already in the inbox'), T + 3);
      const test = await store(storage, sandbox('test'), T + 4);

      // Asked in any order (a repeat included), the ids moved come back once each, in ascending order.
      expect(await storage.messages.moveToInbox([second, inboxed, test, first, second], ['webhook'], T + 10)).toEqual([
        first,
        second,
      ]);
      expect(await storage.messages.moveToInbox([first], ['webhook'], T + 20)).toEqual([]);
      const inbox = await storage.messages.list({ sandbox: false });
      expect(ids(inbox)).toEqual([inboxed, second, first]);
      expect(inbox[2]).toMatchObject({
        folder: 'inbox',
        spamReasons: ['link-heavy', 'too-fast'],
        deliveries: { webhook: { state: 'pending', attempts: 0, nextAt: T + 10, lastError: null } },
      });
      expect(inbox[0]?.deliveries).toEqual({});
      expect(ids(await storage.messages.list({ sandbox: false, folder: 'spam' }))).toEqual([kept]);
    },
  );

  it.skipIf(skip)('counts the live spam that came in since a time', async () => {
    const storage = await open();
    await store(storage, spam('old'), T);
    const recent = await store(storage, spam('recent'), T + 10);
    await store(storage, spam('newest'), T + 20);
    await store(storage, live('not spam'), T + 30);
    await store(storage, { ...sandbox('sandbox spam'), folder: 'spam' }, T + 40);
    expect(await storage.messages.countSpam(T + 10)).toBe(2);
    expect(await storage.messages.countSpam(T + 21)).toBe(0);
    await storage.messages.moveToInbox([recent], [], T + 50);
    expect(await storage.messages.countSpam(T)).toBe(2);
  });

  it.skipIf(skip)('purges old sandbox messages only, never a live one', async () => {
    const storage = await open();
    const oldLive = await store(storage, live('old live'), T, ['webhook']);
    const oldSpam = await store(storage, spam('old spam'), T);
    await store(storage, sandbox('old test'), T);
    await store(storage, sandbox('older test'), T - 1);
    const recent = await store(storage, sandbox('recent test'), T + 10);
    expect(await storage.messages.purgeSandbox(T + 10)).toBe(2);
    expect(await storage.messages.purgeSandbox(T + 10)).toBe(0);
    expect(ids(await storage.messages.list({ sandbox: true }))).toEqual([recent]);
    expect(ids(await storage.messages.list({ sandbox: false }))).toEqual([oldLive]);
    expect(ids(await storage.messages.list({ sandbox: false, folder: 'spam' }))).toEqual([oldSpam]);
    expect(await storage.messages.purgeSandbox(T + 1000)).toBe(1);
    expect(await storage.messages.nextDeliveryAt('webhook')).toBe(T);
  });

  it.skipIf(skip)(
    'keeps each sandbox client and test key within its share, deleting their oldest messages first',
    async () => {
      const storage = await open();
      const share = (client: string, key: string | null) => ({ client, key, bytes: 10, maxBytes: 25 });
      const sandboxed = async (text: string, client: string, key: string | null, now: number) => {
        const ref = { scope: 'contact', sandbox: true, key: `${text}-${now}` };
        const claim = await storage.idempotency.claim(ref, MINUTE, now);
        if (claim.kind !== 'claimed') throw new Error(`expected a claim, got ${claim.kind}`);
        const outcome = await storage.messages.storeSubmission(
          {
            ref,
            token: claim.token,
            message: sandbox(text),
            channels: [],
            answer: { fingerprint: text, status: 200, body: '{}' },
            sandboxShare: share(client, key),
          },
          now,
        );
        if (!outcome.stored) throw new Error('expected the message to be stored');
        return outcome.id;
      };
      const listed = async () => (await storage.messages.list({ sandbox: true })).map((message) => message.message);

      await sandboxed('a1', 'client-a', null, T);
      await sandboxed('a2', 'client-a', 'key-k', T + 1);
      await sandboxed('b1', 'client-b', null, T + 2);
      expect(await listed()).toEqual(['b1', 'a2', 'a1']);
      // A third message of client-a's would keep 30 bytes of its 25: its oldest goes.
      await sandboxed('a3', 'client-a', null, T + 3);
      expect(await listed()).toEqual(['a3', 'b1', 'a2']);
      // Key k's share counts across clients: a third message with it deletes k's oldest, of client-a.
      await sandboxed('c1', 'client-c', 'key-k', T + 4);
      await sandboxed('c2', 'client-c', 'key-k', T + 5);
      expect(await listed()).toEqual(['c2', 'c1', 'a3', 'b1']);
      // The purge gives the shares back their bytes: client-c can keep two messages again.
      expect(await storage.messages.purgeSandbox(T + 5)).toBe(3);
      await sandboxed('c3', 'client-c', 'key-k', T + 6);
      expect(await listed()).toEqual(['c3', 'c2']);
    },
  );

  it.skipIf(skip)('hands each due delivery to one claimer at a time, across instances claiming together', async () => {
    const [a, b] = (await instances(2)) as [Storage, Storage];
    for (let index = 0; index < 60; index++) await store(a, live(`due-${index}`), T + index, ['webhook']);
    expect(await b.messages.nextDeliveryAt('webhook')).toBe(T);
    const rounds = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        (index % 2 === 0 ? a : b).messages.claimDue('webhook', T + 100, 7, MINUTE),
      ),
    );
    const claimed = rounds.flat().map((due) => due.message.id);
    expect(claimed).toHaveLength(60);
    expect(new Set(claimed).size).toBe(60);
    for (const round of rounds) {
      const inRound = round.map((due) => due.message.id);
      expect(inRound).toEqual([...inRound].sort((x, y) => x - y));
    }
    expect(await a.messages.claimDue('webhook', T + MINUTE + 99, 100, MINUTE)).toEqual([]);

    const [first, second] = (await b.messages.claimDue('webhook', T + MINUTE + 100, 2, MINUTE)).map(
      (due) => due.message.id,
    );
    await a.messages.recordDelivery(first as number, 'webhook');
    await a.messages.recordFailure(second as number, 'webhook', 'HTTP 500', null);
    const listed = await b.messages.list({ sandbox: false, unreadOnly: true, limit: 100 });
    expect(listed.find((message) => message.id === first)?.deliveries.webhook).toMatchObject({
      state: 'delivered',
      attempts: 1,
    });
    expect(listed.find((message) => message.id === second)?.deliveries.webhook).toMatchObject({
      state: 'failed',
      attempts: 1,
    });
    expect(await a.messages.markRead([first as number, second as number, 999_999], T)).toBe(2);
    expect(await b.messages.markRead([first as number], T)).toBe(0);
    expect(await b.messages.list({ sandbox: false, unreadOnly: true })).toHaveLength(58);
    expect((await b.messages.list({ sandbox: false, limit: 3 })).map((message) => message.createdAt)).toEqual([
      T + 59,
      T + 58,
      T + 57,
    ]);
    expect(await a.messages.purgeSandbox(T + 1000)).toBe(0);
  });
  it.skipIf(skip)(
    'stores each of many submissions sent at once, with its own fields and deliveries, and none whose claim was lost',
    async () => {
      const storage = await open();
      // More at once than one shared statement carries (PostgreSQL groups them: pg-group-commit.ts).
      const texts = Array.from({ length: 150 }, (_, index) => `message ${index}`);
      const ids = await Promise.all(
        texts.map((text, index) =>
          store(storage, index % 3 === 0 ? spam(text) : live(text), T + index, index % 3 === 1 ? ['webhook'] : []),
        ),
      );
      expect(new Set(ids).size).toBe(texts.length);
      const listed = [
        ...(await storage.messages.list({ sandbox: false })),
        ...(await storage.messages.list({ sandbox: false, folder: 'spam' })),
      ];
      expect(listed).toHaveLength(texts.length);
      for (const [index, id] of ids.entries()) {
        const message = listed.find((one) => one.id === id)!;
        expect(message).toMatchObject({ message: texts[index], createdAt: T + index });
        expect(message.folder).toBe(index % 3 === 0 ? 'spam' : 'inbox');
        expect(Object.keys(message.deliveries)).toEqual(index % 3 === 1 ? ['webhook'] : []);
      }

      // A claim taken over (its lease ran out) stores nothing, beside others stored at the same moment.
      if (!claimsLapse) return;
      const ref = { scope: 'contact', sandbox: false, key: 'taken-over' };
      const lost = await storage.idempotency.claim(ref, 1, T);
      const current = await storage.idempotency.claim(ref, 60_000, T + 10);
      if (lost.kind !== 'claimed' || current.kind !== 'claimed') throw new Error('both claims should be taken');
      const answer = { fingerprint: 'f', status: 200, body: '{}' };
      const [late, others] = await Promise.all([
        storage.messages.storeSubmission(
          { ref, token: lost.token, message: live('late'), channels: [], answer },
          T + 20,
        ),
        Promise.all(texts.slice(0, 20).map((text) => store(storage, live(`again ${text}`), T + 20))),
      ]);
      expect(late).toEqual({ stored: false, earlier: undefined });
      expect(new Set([...ids, ...others]).size).toBe(texts.length + 20);
    },
  );
});
