import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContact, readInbox, VALID } from '../support/contact.ts';
import { TEST_ENGINE } from '../support/engines.ts';
import { queryState } from '../support/raw-state.ts';
import { startServer } from '../support/server.ts';
import { startService, type InProcessService } from '../support/service.ts';

// What only a real server shows about contact posts: a connection that declares a body it does
// not send and one whose body arrives slowly (the listener, in process), and kill -9 (the
// process). The rest is in tests/api/contact-api.test.ts.
let server: InProcessService;

beforeAll(async () => {
  server = await startService({ READ_RATE_LIMIT: '100000/60', CONTACT_RATE_LIMIT: '1000/600' });
});
afterAll(() => server.stop());

/**
 * Writes `request` (one or more raw HTTP/1.1 requests) on a new connection and resolves with what
 * came back once `answered` holds for it. A reset, or a close before that, fails the exchange; the
 * deadline only catches a hang.
 */
function exchange(request: string, answered: (data: string) => boolean): Promise<string> {
  const base = new URL(server.baseUrl);
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(base.port), base.hostname, () => socket.write(request));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
      if (answered(data)) {
        socket.destroy();
        resolve(data);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed after: ${data}`)));
    setTimeout(() => reject(new Error(`no answer: ${data}`)), 30_000).unref();
  });
}

const contactHead = (contentLength: number) =>
  `POST /api/v1/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: ${randomUUID()}\r\nContent-Length: ${contentLength}\r\n\r\n`;

describe('POST /api/v1/contact over a connection', () => {
  it('refuses a declared oversized body before reading it', async () => {
    // Declares a megabyte and sends none of it: the answer must not wait for the body.
    const answer = await exchange(contactHead(1048576), (data) => data.includes('payload_too_large'));
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.toLowerCase()).toContain('connection: close');
  });

  it('drops the rest of a small refused body and keeps the connection, so a proxy still sending it is not reset', async () => {
    const body = JSON.stringify({ ...VALID, message: 'x'.repeat(20_000) });
    const answers = await exchange(
      `${contactHead(Buffer.byteLength(body))}${body}GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n`,
      (data) => data.includes('"status":"ok"'),
    );
    const [refused, health] = answers.split(/(?=HTTP\/1\.1 )/);
    expect(refused).toMatch(/^HTTP\/1\.1 413/);
    expect(refused).toContain('payload_too_large');
    expect(refused?.toLowerCase()).not.toContain('connection: close');
    expect(health).toMatch(/^HTTP\/1\.1 200/);
  });
});

/**
 * Waits until the service holds the claim on `key`. "100 Continue" only says the request was handed
 * on: on the shared engines the claim is a row written after the quota is charged on Redis, so a
 * busy machine could let the concurrent request claim first. Embedded claims live in the service's
 * process (state/sqlite/in-flight-keys.ts), taken in the turn that handed the request on, with no
 * I/O in between, so nothing can be seen or waited for there.
 */
async function claimTaken(key: string): Promise<void> {
  if (TEST_ENGINE !== 'shared') return;
  while ((await queryState(server.dataDir, 'SELECT state FROM idempotency WHERE key = ?', key)).length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Idempotency-Key over connections', () => {
  it('answers 409 while the first request with the key is still in progress', async () => {
    const key = randomUUID();
    const base = new URL(server.baseUrl);
    const body = JSON.stringify({ ...VALID, message: `Slow body ${key}` });
    const socket = connect(Number(base.port), base.hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    let firstAnswer = '';
    const waiters: (() => void)[] = [];
    socket.on('data', (chunk) => {
      firstAnswer += chunk.toString();
      for (const waiter of waiters) waiter();
    });
    // Waits for the answer so far to match, however long a busy machine takes (the test's timeout catches a hang).
    const answered = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => pattern.test(firstAnswer) && resolve();
        waiters.push(check);
        check();
      });
    // "100 Continue" comes once the server has read the headers and handed the request on, so the
    // key is claimed before the concurrent request is sent, rather than after a guessed delay.
    const continued = answered(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    socket.write(
      `POST /api/v1/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: ${key}\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    await continued;
    await claimTaken(key);
    socket.write(body.slice(0, 10));
    const concurrent = await postContact(server.baseUrl, JSON.parse(body), { key });
    expect([concurrent.status, concurrent.body.code]).toEqual([409, 'idempotency_request_in_progress']);
    expect(concurrent.headers.get('retry-after')).toMatch(/^\d+$/);
    const done = answered(/\r\n\r\nHTTP\/1\.1 \d{3} [\s\S]*\r\n\r\n\{[\s\S]*\}$/);
    socket.write(body.slice(10));
    await done;
    socket.destroy();
    expect(firstAnswer.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '')).toMatch(/^HTTP\/1\.1 200/);
    const after = await postContact(server.baseUrl, JSON.parse(body), { key });
    expect(after.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('durability', () => {
  it('keeps an acknowledged message and its key through kill -9 and a restart', async () => {
    const first = await startServer();
    const key = randomUUID();
    const message = `Survive a crash ${key}`;
    expect((await postContact(first.baseUrl, { ...VALID, message }, { key })).status).toBe(200);
    await first.stop('SIGKILL');
    const second = await startServer({}, first.dataDir);
    try {
      expect((await readInbox(second.dataDir)).filter((entry) => entry.message === message)).toHaveLength(1);
      const replay = await postContact(second.baseUrl, { ...VALID, message }, { key });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect((await readInbox(second.dataDir)).filter((entry) => entry.message === message)).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});
