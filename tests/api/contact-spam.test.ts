import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TOKEN_MAX_MESSAGES } from '../../functions/contact/form-token.ts';
import { SPAM_RULES } from '../../functions/contact/spam-score.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { contactPageTokens, postContact, readInbox, runInboxOutput, storedInbox, VALID } from '../support/contact.ts';
import { TEST_ENGINE } from '../support/engines.ts';
import { emailEnv, startMailbox } from '../support/smtp.ts';
import { receiver, waitFor, type Receiver } from '../support/webhook.ts';

/** More links than a message may carry. */
const LINKS = Array.from({ length: SPAM_RULES.maxLinks + 2 }, (_, i) => `https://cheap${i}.example/offer`).join(' ');

/** A plain form post, as a browser without JavaScript sends it. */
function postForm(server: InProcessApi, fields: Record<string, string>) {
  return fetch(`${server.baseUrl}/contact`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
}

describe('spam from any client', () => {
  let hook: Receiver;
  let server: InProcessApi;
  beforeAll(async () => {
    hook = await receiver(0);
    server = await startApi({
      NOTIFY_WEBHOOK_URL: hook.url,
      NOTIFY_RETRY_BASE_MS: '50',
      CONTACT_RATE_LIMIT: '1000/600',
    });
  });
  afterAll(async () => {
    await server.stop();
    hook.close();
  });

  it('answers a message with many links as any other, keeps it in the spam folder with its reasons, and never notifies', async () => {
    const key = randomUUID();
    const spam = { ...VALID, message: `Buy now ${LINKS}` };
    const posted = await postContact(server.baseUrl, spam, { key });
    expect([posted.status, posted.body]).toEqual([200, { success: true }]);
    const replay = await postContact(server.baseUrl, spam, { key });
    expect([replay.status, replay.body, replay.headers.get('idempotent-replayed')]).toEqual([
      200,
      { success: true },
      'true',
    ]);

    // A live message after it: once that one is delivered, the spam had every chance to be.
    const normal = { ...VALID, message: `A real message ${randomUUID()}` };
    expect((await postContact(server.baseUrl, normal)).status).toBe(200);
    await hook.accepted(1);
    expect(hook.received.map((post) => post.body.message)).toEqual([normal.message]);

    const inbox = await storedInbox(server.dataDir);
    expect(inbox.map((entry) => entry.message)).toEqual([normal.message]);
    expect(inbox[0]).toMatchObject({ folder: 'inbox', spamReasons: [] });
    const folder = await readInbox(server.dataDir, '--spam');
    expect(folder).toEqual([
      expect.objectContaining({
        message: spam.message,
        folder: 'spam',
        spamReasons: [`${SPAM_RULES.maxLinks + 2} links (+${SPAM_RULES.threshold})`],
        deliveries: {},
      }),
    ]);
    const text = await runInboxOutput({}, server.dataDir, '--spam');
    expect(text.stdout).toContain(`spam: never notified (${SPAM_RULES.maxLinks + 2} links`);
  });

  it('judges API clients without the form-only rules, and keeps spam through the sandbox purge', async () => {
    // No form token: an API client is not a form sent too fast.
    const plain = { ...VALID, message: `From a script ${randomUUID()}` };
    expect((await postContact(server.baseUrl, plain)).status).toBe(200);
    expect((await storedInbox(server.dataDir)).map((entry) => entry.message)).toContain(plain.message);
    // The page's guards, when an API client sends them, are judged as the page's.
    const forged = { ...VALID, message: `Forged form ${randomUUID()}`, form: { token: 'made-up', honeypot: '' } };
    expect((await postContact(server.baseUrl, forged)).status).toBe(200);
    const spam = await storedInbox(server.dataDir, { folder: 'spam' });
    expect(spam.find((entry) => entry.message === forged.message)?.spamReasons).toEqual([
      `form token invalid (+${SPAM_RULES.threshold})`,
    ]);

    await server.api.services.storage.messages.purgeSandbox(Date.now() + 60_000);
    expect(await storedInbox(server.dataDir, { folder: 'spam' })).toHaveLength(spam.length);
  });

  it('moves a message the owner says is not spam to the inbox and delivers it then', async () => {
    const wrongly = { ...VALID, name: 'https://grace.example', message: 'My site: https://grace.example' };
    expect((await postContact(server.baseUrl, wrongly)).status).toBe(200);
    const [flagged] = await storedInbox(server.dataDir, { folder: 'spam' });
    expect(flagged).toMatchObject({ message: wrongly.message, deliveries: {} });
    const before = hook.received.length;

    const moved = await runInboxOutput(
      { NOTIFY_WEBHOOK_URL: hook.url },
      server.dataDir,
      '--json',
      '--not-spam',
      String(flagged!.id),
    );
    expect(moved.stderr).toContain(`Moved #${flagged!.id} to the inbox (queued for webhook)`);
    expect(JSON.parse(moved.stdout)).toMatchObject({
      id: flagged!.id,
      folder: 'inbox',
      deliveries: { webhook: { state: 'pending' } },
    });
    expect((await storedInbox(server.dataDir, { folder: 'spam' })).map((entry) => entry.id)).not.toContain(flagged!.id);
    // The running service sends queued deliveries at once on its next message.
    expect((await postContact(server.baseUrl, { ...VALID, message: `Wake up ${randomUUID()}` })).status).toBe(200);
    await hook.accepted(before + 2);
    expect(hook.received.map((post) => post.body.message)).toContain(wrongly.message);
  });
});

describe('spam the owner hears about', () => {
  it('counts the spam of the last 24 hours in every notification, by webhook and by mail', async () => {
    const hook = await receiver(0);
    const mailbox = await startMailbox();
    const server = await startApi({
      NOTIFY_WEBHOOK_URL: hook.url,
      ...emailEnv(mailbox),
      NOTIFY_RETRY_BASE_MS: '50',
      CONTACT_RATE_LIMIT: '1000/600',
    });
    // The command for this installation: its checkout, where its data is, then the spam folder's option.
    const where = TEST_ENGINE === 'shared' ? '' : `DATA_DIR=${server.dataDir} `;
    const after = TEST_ENGINE === 'shared' ? " (with the service's DATABASE_URL set)" : '';
    const line = (count: string) =>
      `${count} went to spam in the last 24 hours: cd ${process.cwd()} && ${where}npm run inbox -- --spam${after}`;
    try {
      expect(
        (await postContact(server.baseUrl, { ...VALID, message: `The first message ${randomUUID()}` })).status,
      ).toBe(200);
      await hook.accepted(1);
      await waitFor(() => mailbox.mails.length === 1, 'the first mail');
      expect(hook.received[0]!.body.spamLastDay).toBe(0);
      expect(String(hook.received[0]!.body.text)).not.toContain('went to spam');
      expect(mailbox.mails[0]!.body).not.toContain('went to spam');

      for (const n of [1, 2]) {
        expect((await postContact(server.baseUrl, { ...VALID, message: `Spam ${n} ${LINKS}` })).status).toBe(200);
      }
      expect((await postContact(server.baseUrl, { ...VALID, message: `After the spam ${randomUUID()}` })).status).toBe(
        200,
      );
      await hook.accepted(2);
      await waitFor(() => mailbox.mails.length === 2, 'the second mail');
      const post = hook.received[1]!.body;
      expect(post.spamLastDay).toBe(2);
      expect(String(post.text).split('\n')).toEqual([expect.stringContaining('After the spam'), line('2 messages')]);
      expect(mailbox.mails[1]!.body).toContain(`\r\n${line('2 messages')}\r\n`);
      // The spam itself is still never sent.
      expect(hook.received).toHaveLength(2);
      expect(mailbox.mails).toHaveLength(2);
    } finally {
      await server.stop();
      hook.close();
      await mailbox.close();
    }
  });
});

describe('the contact form without JavaScript', () => {
  let patient: InProcessApi;
  let quick: InProcessApi;
  beforeAll(async () => {
    // One that no test outlasts, so any post to it comes too fast; one that a test can wait out.
    [patient, quick] = await Promise.all([
      startApi({ CONTACT_MIN_FILL_SECONDS: '600' }),
      startApi({ CONTACT_MIN_FILL_SECONDS: '1', CONTACT_RATE_LIMIT: '1000/600' }),
    ]);
  });
  afterAll(() => Promise.all([patient.stop(), quick.stop()]));

  /** Loads the page, waits `fillMs` as a person writing would, then posts the form with `extra` fields. */
  async function post(server: InProcessApi, extra: Record<string, string>, message: string, fillMs = 0) {
    const tokens = await contactPageTokens(server.baseUrl);
    await new Promise((resolve) => setTimeout(resolve, fillMs));
    expect(tokens.form_token).toMatch(/^[0-9a-z]+\.[\w-]{43}$/);
    const response = await postForm(server, { ...tokens, ...VALID, message, website: '', ...extra });
    // Spam or not, the visitor sees the thank-you page: a bot learns nothing.
    expect([response.status, response.headers.get('location')]).toEqual([303, '/contact/thanks']);
  }

  const reasonsOf = async (server: InProcessApi, message: string) =>
    (await storedInbox(server.dataDir, { folder: 'spam' })).find((entry) => entry.message === message)?.spamReasons;

  it('keeps a form sent at once as spam', async () => {
    const message = `Too fast ${randomUUID()}`;
    await post(patient, {}, message);
    expect(await reasonsOf(patient, message)).toEqual([`form sent too fast (+${SPAM_RULES.threshold})`]);
    expect(await storedInbox(patient.dataDir)).toEqual([]);
  });

  it('keeps a form with the honeypot filled, or without a valid token, as spam', async () => {
    const honey = `Honeypot ${randomUUID()}`;
    await post(quick, { website: 'https://bot.example' }, honey, 1100);
    expect(await reasonsOf(quick, honey)).toEqual([`hidden field filled (+${SPAM_RULES.threshold})`]);
    for (const [formToken, reason] of [
      ['', 'form token missing'],
      ['lq0x.AAAA', 'form token invalid'],
    ]) {
      const message = `Bad token ${randomUUID()}`;
      await post(quick, { form_token: formToken! }, message);
      expect(await reasonsOf(quick, message)).toEqual([`${reason} (+${SPAM_RULES.threshold})`]);
    }
  });

  it(`keeps ${FORM_TOKEN_MAX_MESSAGES} messages from one page's token, and the next as spam with its reason`, async () => {
    const tokens = await contactPageTokens(quick.baseUrl);
    // Longer than CONTACT_MIN_FILL_SECONDS.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const tag = randomUUID();
    const send = async (n: number, key = randomUUID()) => {
      const response = await postForm(quick, {
        ...tokens,
        idempotency_key: key,
        ...VALID,
        message: `Page ${tag} #${n}`,
        website: '',
      });
      expect([response.status, response.headers.get('location')]).toEqual([303, '/contact/thanks']);
    };
    const first = randomUUID();
    await send(1, first);
    // The same message sent again (a resubmitted form) is a replay: it does not count twice.
    await send(1, first);
    for (let n = 2; n <= FORM_TOKEN_MAX_MESSAGES + 1; n++) await send(n);
    const inbox = (await storedInbox(quick.dataDir)).filter((entry) => entry.message.includes(tag));
    expect(inbox.map((entry) => entry.message).sort()).toEqual(
      Array.from({ length: FORM_TOKEN_MAX_MESSAGES }, (_, i) => `Page ${tag} #${i + 1}`),
    );
    expect(await reasonsOf(quick, `Page ${tag} #${FORM_TOKEN_MAX_MESSAGES + 1}`)).toEqual([
      `form token used for more than ${FORM_TOKEN_MAX_MESSAGES} messages (+${SPAM_RULES.threshold})`,
    ]);
  });

  it('puts a form sent after the minimum time, with its token, in the inbox', async () => {
    const message = `Written by a person ${randomUUID()}`;
    // Longer than CONTACT_MIN_FILL_SECONDS.
    await post(quick, {}, message, 1100);
    expect((await storedInbox(quick.dataDir)).find((entry) => entry.message === message)).toMatchObject({
      folder: 'inbox',
      spamReasons: [],
    });
  });
});
