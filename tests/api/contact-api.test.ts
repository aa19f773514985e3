import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContact, storedInbox, VALID } from '../support/contact.ts';
import { validationErrorSchema } from '../support/schemas.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { TEST_ENGINE } from '../support/engines.ts';
import { queryState } from '../support/raw-state.ts';

let server: InProcessApi;

beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '100000/60', CONTACT_RATE_LIMIT: '1000/600' });
});
afterAll(() => server.stop());

describe('POST /api/v1/contact', () => {
  it('stores a valid message once and answers {success: true} with the quota headers', async () => {
    const message = { ...VALID, message: `Unique message ${randomUUID()}` };
    const posted = await postContact(server.baseUrl, message);
    expect(posted.status).toBe(200);
    expect(posted.body).toEqual({ success: true });
    expect(posted.headers.get('ratelimit-limit')).toBe('1000');
    expect(posted.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    expect(posted.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    const inbox = await storedInbox(server.dataDir);
    expect(inbox.filter((entry) => entry.message === message.message)).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ ...message, read: false, sandbox: false, deliveries: {} });
  });

  it('reports every problem of a body at once', async () => {
    const posted = await postContact(server.baseUrl, {
      name: '   ',
      email: 'not-an-email',
      message: 'short',
      phone: '123',
      extra: true,
    });
    expect(posted.status).toBe(400);
    const error = validationErrorSchema.parse(posted.body);
    expect(error.code).toBe('validation_failed');
    const fields = error.errors.map((e) => e.field).sort();
    expect(fields).toEqual(['email', 'extra', 'message', 'name', 'phone']);
  });

  it.each([
    ['a missing name', { email: VALID.email, message: VALID.message }, 'name', 'is required'],
    ['a 201-character name', { ...VALID, name: 'n'.repeat(201) }, 'name', 'at most 200'],
    ['an email over 254 characters', { ...VALID, email: `${'a'.repeat(250)}@example.com` }, 'email', 'at most 254'],
    ['a 9-character message', { ...VALID, message: '123456789' }, 'message', 'at least 10'],
    ['a message of 10 spaces and 5 letters', { ...VALID, message: `${' '.repeat(10)}hello` }, 'message', 'at least 10'],
    ['a 5001-character message', { ...VALID, message: 'm'.repeat(5001) }, 'message', 'at most 5000'],
    ['a number as name', { ...VALID, name: 42 }, 'name', 'must be a string'],
  ])('refuses %s', async (_label, body, field, problem) => {
    const posted = await postContact(server.baseUrl, body);
    expect(posted.status).toBe(400);
    expect(posted.body.code).toBe('validation_failed');
    const { errors } = validationErrorSchema.parse(posted.body);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.field).toBe(field);
    expect(errors[0]!.problem).toContain(problem);
  });

  it('accepts the limits exactly', async () => {
    const posted = await postContact(server.baseUrl, {
      name: 'n'.repeat(200),
      email: VALID.email,
      message: 'm'.repeat(5000),
    });
    expect(posted.status).toBe(200);
  });

  it.each([
    ['an array', '[1,2]'],
    ['a string', '"hello"'],
    ['null', 'null'],
    ['a number', '42'],
  ])('refuses %s as the body with validation_failed', async (_label, raw) => {
    const posted = await postContact(server.baseUrl, null, { raw });
    expect(posted.status).toBe(400);
    expect(posted.body.code).toBe('validation_failed');
  });

  it('answers malformed JSON with malformed_json and other media types with 415', async () => {
    expect((await postContact(server.baseUrl, null, { raw: '{"name": "x",' })).body.code).toBe('malformed_json');
    expect((await postContact(server.baseUrl, null, { raw: '' })).body.code).toBe('malformed_json');
    const form = await postContact(server.baseUrl, null, {
      raw: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.body.code).toBe('unsupported_media_type');
    const text = await postContact(server.baseUrl, null, {
      raw: JSON.stringify(VALID),
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
  });

  it('refuses a body over 16 KiB with 413', async () => {
    const posted = await postContact(server.baseUrl, { ...VALID, message: 'x'.repeat(17 * 1024) });
    expect(posted.status).toBe(413);
    expect(posted.body.code).toBe('payload_too_large');
  });
});

describe('Idempotency-Key', () => {
  it('is required and must be a UUID, bare or as a structured-field string', async () => {
    const missing = await postContact(server.baseUrl, VALID, { key: null });
    expect([missing.status, missing.body.code]).toEqual([400, 'idempotency_key_missing']);
    for (const bad of ['abc', '12345678-1234-1234-1234-1234567890', `${randomUUID()}x`, `"${randomUUID()}`]) {
      const invalid = await postContact(server.baseUrl, VALID, { key: bad });
      expect([invalid.status, invalid.body.code]).toEqual([400, 'idempotency_key_invalid']);
    }
    const quoted = await postContact(
      server.baseUrl,
      { ...VALID, message: `Quoted key ${randomUUID()}` },
      { key: `"${randomUUID()}"` },
    );
    expect(quoted.status).toBe(200);
  });

  it('replays the first answer for the same payload, without a second message or quota', async () => {
    const key = randomUUID();
    const message = `Replay me ${key}`;
    const first = await postContact(server.baseUrl, { ...VALID, message }, { key });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const reordered = `{ "message" : ${JSON.stringify(message)},\n "email": ${JSON.stringify(VALID.email)}, "name": ${JSON.stringify(VALID.name)} }`;
    const again = await postContact(server.baseUrl, null, { key, raw: reordered });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('ratelimit-remaining')).toBe(first.headers.get('ratelimit-remaining'));
    const upper = await postContact(server.baseUrl, { ...VALID, message }, { key: key.toUpperCase() });
    expect(upper.headers.get('idempotent-replayed')).toBe('true');
    expect((await storedInbox(server.dataDir)).filter((entry) => entry.message === message)).toHaveLength(1);
  });

  it('answers 422 when the key comes back with a different payload', async () => {
    const key = randomUUID();
    expect((await postContact(server.baseUrl, { ...VALID, message: `First payload ${key}` }, { key })).status).toBe(
      200,
    );
    const reused = await postContact(server.baseUrl, { ...VALID, message: `Second payload ${key}` }, { key });
    expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused']);
  });

  it('does not keep a key whose request failed validation', async () => {
    const key = randomUUID();
    expect((await postContact(server.baseUrl, { ...VALID, message: 'short' }, { key })).status).toBe(400);
    expect((await postContact(server.baseUrl, { ...VALID, message: `Fixed message ${key}` }, { key })).status).toBe(
      200,
    );
  });

  it('stores exactly one message for 50 parallel submissions with one key', async () => {
    const key = randomUUID();
    const message = `Parallel same key ${key}`;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => postContact(server.baseUrl, { ...VALID, message }, { key })),
    );
    const fresh = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const answer of answers) {
      const ok =
        (answer.status === 200 && answer.body.success === true) ||
        (answer.status === 409 && answer.body.code === 'idempotency_request_in_progress');
      expect(ok, JSON.stringify(answer.body)).toBe(true);
    }
    expect((await storedInbox(server.dataDir)).filter((entry) => entry.message === message)).toHaveLength(1);
  });
});

describe('contact quota', () => {
  it('accepts exactly the quota from 50 parallel submissions with distinct keys', async () => {
    const limited = await startApi({ CONTACT_RATE_LIMIT: '5/600' });
    try {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          postContact(limited.baseUrl, { ...VALID, message: `Flood message number ${i}` }),
        ),
      );
      const accepted = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status === 429);
      expect(accepted).toHaveLength(5);
      expect(refused).toHaveLength(45);
      for (const answer of refused) {
        expect(answer.body.code).toBe('rate_limited');
        expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
        expect(answer.headers.get('ratelimit-remaining')).toBe('0');
      }
      expect(await storedInbox(limited.dataDir)).toHaveLength(5);
    } finally {
      await limited.stop();
    }
  });

  it('counts sandbox messages apart, so testing never uses up the live quota', async () => {
    const limited = await startApi({ CONTACT_RATE_LIMIT: '1/600' });
    const post = (headers: Record<string, string> = {}) =>
      postContact(limited.baseUrl, { ...VALID, message: `Quota message ${randomUUID()}` }, { headers });
    try {
      expect((await post({ 'x-sandbox': 'true' })).status).toBe(200);
      expect((await post({ 'x-sandbox': 'true' })).status).toBe(429);
      const live = await post();
      expect(live.status).toBe(200);
      expect(live.headers.get('ratelimit-remaining')).toBe('0');
      expect((await post()).status).toBe(429);
    } finally {
      await limited.stop();
    }
  });
});

describe('request quota', () => {
  it('counts every contact post, replay and refusal, the form, health and token requests, and writes nothing for an invalid body', async () => {
    const limited = await startApi({ READ_RATE_LIMIT: '8/60', CONTACT_RATE_LIMIT: '100/600' });
    try {
      const walSize = () =>
        TEST_ENGINE === 'embedded' ? statSync(path.join(limited.dataDir, 'portfolio.db-wal')).size : 0;
      const walBefore = walSize();
      for (let i = 0; i < 3; i++)
        expect((await postContact(limited.baseUrl, { ...VALID, email: 'not-an-email' })).status).toBe(400);
      // A body that fails validation costs a request but keeps nothing: on SQLite the write-ahead log
      // did not even grow; on PostgreSQL the claim row of each key was released.
      expect(walSize()).toBe(walBefore);
      expect(await queryState(limited.dataDir, 'SELECT key FROM idempotency')).toEqual([]);
      const key = randomUUID();
      expect((await postContact(limited.baseUrl, VALID, { key })).status).toBe(200);
      const replay = await postContact(limited.baseUrl, VALID, { key });
      expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
      expect((await fetch(`${limited.baseUrl}/api/health`)).status).toBe(200);
      const token = () =>
        fetch(`${limited.baseUrl}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials',
        });
      expect((await token()).status).toBe(401);
      const form = () =>
        fetch(`${limited.baseUrl}/contact`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ ...VALID, idempotency_key: randomUUID() }),
        });
      expect((await form()).status).toBe(303);

      const refused = await postContact(limited.baseUrl, VALID);
      expect([refused.status, refused.body.code, refused.headers.get('ratelimit-remaining')]).toEqual([
        429,
        'rate_limited',
        '0',
      ]);
      expect((await fetch(`${limited.baseUrl}/api/health`)).status).toBe(429);
      expect((await token()).status).toBe(429);
      expect((await form()).status).toBe(429);
      expect(await storedInbox(limited.dataDir)).toHaveLength(1);
      // The form post carried no fill-time token: it is kept, as spam.
      expect(await storedInbox(limited.dataDir, { folder: 'spam' })).toHaveLength(1);
    } finally {
      await limited.stop();
    }
  });
});

describe('sandbox', () => {
  it('answers like production with X-Sandbox: true, stores apart and keeps keys apart', async () => {
    const key = randomUUID();
    const message = `Sandbox message ${key}`;
    for (const options of [
      { query: '?sandbox=true' },
      { headers: { 'x-sandbox': 'true' } },
      { headers: { 'x-sandbox': '1' } },
    ]) {
      const posted = await postContact(server.baseUrl, { ...VALID, message }, { key, ...options });
      expect(posted.status).toBe(200);
      expect(posted.headers.get('x-sandbox')).toBe('true');
    }
    const invalid = await postContact(server.baseUrl, { ...VALID, message: 'bad' }, { query: '?sandbox=true' });
    expect([invalid.status, invalid.headers.get('x-sandbox')]).toEqual([400, 'true']);
    // The same key in production is a different record.
    const production = await postContact(server.baseUrl, { ...VALID, message: `${message} (production)` }, { key });
    expect(production.status).toBe(200);
    expect(production.headers.get('x-sandbox')).toBeNull();
    expect((await storedInbox(server.dataDir)).some((entry) => entry.message === message)).toBe(false);
    const sandboxInbox = await storedInbox(server.dataDir, { sandbox: true });
    expect(sandboxInbox.filter((entry) => entry.message === message)).toHaveLength(1);
    expect(sandboxInbox[0]!.deliveries).toEqual({});
  });

  it('refuses X-Sandbox values other than true, 1, false and 0', async () => {
    const posted = await postContact(server.baseUrl, VALID, { headers: { 'x-sandbox': 'yes' } });
    expect([posted.status, posted.body.code]).toEqual([400, 'invalid_header']);
    expect(String(posted.body.message)).toContain('true, 1, false, 0');
    const query = await postContact(server.baseUrl, VALID, { query: '?sandbox=maybe' });
    expect([query.status, query.body.code]).toEqual([400, 'invalid_parameter']);
  });
});
