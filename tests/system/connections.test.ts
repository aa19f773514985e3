import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContact, readInbox, VALID } from '../support/contact.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
let port: number;

beforeAll(async () => {
  server = await startServer({
    CONTACT_RATE_LIMIT: '1000/60',
    HEADERS_TIMEOUT_MS: '3000',
    REQUEST_TIMEOUT_MS: '4000',
    MAX_CONNECTIONS: '8',
    MAX_CONNECTIONS_PER_CLIENT: '4',
  });
  port = Number(new URL(server.baseUrl).port);
});
afterAll(() => server.stop());

/** A raw connection from a chosen loopback address (all of 127/8 is local), with what it received. */
interface Client {
  socket: Socket;
  received: () => string;
  /** Resolves once the server has closed the connection. */
  closed: Promise<void>;
}

function open(from: string, to = port): Promise<Client> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect({ host: '127.0.0.1', port: to, localAddress: from });
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    // A reset from the server closes the connection too; it is not a failure of the test.
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

/** Resolves once `check` holds; the test timeout is the only limit. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * A connection that got one answer and is now held open by keep-alive (5 s), so the server
 * counts it; null when the server closed it unanswered.
 */
async function held(from: string, to = port): Promise<Client | null> {
  const client = await open(from, to);
  client.socket.write('HEAD /llms.txt HTTP/1.1\r\nHost: x\r\n\r\n');
  await Promise.race([until(() => client.received().includes('\r\n\r\n')), client.closed]);
  if (client.received() === '') return null;
  expect(client.received(), `a held connection from ${from}`).toMatch(/^HTTP\/1\.1 200/);
  return client;
}

/** A fresh connection's first answer, or '' when the server closed it unanswered. */
async function answerTo(from: string, to = port): Promise<string> {
  const client = await open(from, to);
  client.socket.write('GET /llms.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await client.closed;
  return client.received().split('\r\n')[0]!;
}

/** Writes a contact request's headers and half its body, then nothing more. */
async function trickle(key: string, requestId: string, message: string): Promise<Client> {
  const body = JSON.stringify({ ...VALID, message });
  const client = await open('127.0.0.1');
  client.socket.write(
    `POST /api/v1/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Idempotency-Key: ${key}\r\nX-Request-Id: ${requestId}\r\n\r\n${body.slice(0, 20)}`,
  );
  return client;
}

const accessLineOf = (clientRequestId: string) =>
  server.logLines.find((line) => line.clientRequestId === clientRequestId && 'status' in line);

describe('a contact body that stops arriving', () => {
  it('times out with 408, gives its Idempotency-Key back at once, and the retry stores one message', async () => {
    const key = randomUUID();
    const message = `Trickled until the timeout ${key}`;
    const client = await trickle(key, 'trickle-timeout-1', message);
    await until(() => accessLineOf('trickle-timeout-1') !== undefined);
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);

    const retry = await postContact(server.baseUrl, { ...VALID, message }, { key });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect((await readInbox(server.dataDir)).filter((entry) => entry.message === message)).toHaveLength(1);
    // Logged as what it was: no error line, no stack.
    expect(accessLineOf('trickle-timeout-1')).toMatchObject({
      method: 'POST',
      path: '/api/v1/contact',
      status: 408,
      aborted: true,
      clientIp: '127.0.0.1',
    });
    expect(
      server.logLines.filter((line) => line.clientRequestId === 'trickle-timeout-1' && line.level === 'error'),
    ).toEqual([]);
  });

  it('gives its Idempotency-Key back as soon as the client goes away', async () => {
    const key = randomUUID();
    const message = `Abandoned half way ${key}`;
    const client = await trickle(key, 'trickle-abort-1', message);
    // The key is held while the body is awaited (until the server has read the headers, an invalid
    // post with the key takes the claim itself and gives it back with a 400, storing nothing)...
    let early = await postContact(server.baseUrl, {}, { key });
    while (early.status !== 409) early = await postContact(server.baseUrl, {}, { key });
    client.socket.destroy();
    await until(() => accessLineOf('trickle-abort-1') !== undefined);
    expect(accessLineOf('trickle-abort-1')).toMatchObject({ status: 499, aborted: true });
    expect(
      server.logLines.filter((line) => line.clientRequestId === 'trickle-abort-1' && line.level === 'error'),
    ).toEqual([]);

    // ...and free once the client has gone, long before any timeout.
    const retry = await postContact(server.baseUrl, { ...VALID, message }, { key });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect((await readInbox(server.dataDir)).filter((entry) => entry.message === message)).toHaveLength(1);
  });
});

describe('connection caps', () => {
  // A server of its own, whose timeouts never end a connection during these tests, so that only
  // the caps decide which connections stay.
  let capped: RunningServer;
  let cappedPort: number;
  beforeAll(async () => {
    capped = await startServer({
      READ_RATE_LIMIT: '100000/60',
      HEADERS_TIMEOUT_MS: '600000',
      REQUEST_TIMEOUT_MS: '600000',
      MAX_CONNECTIONS: '40',
      MAX_CONNECTIONS_PER_CLIENT: '4',
    });
    cappedPort = Number(new URL(capped.baseUrl).port);
  });
  afterAll(() => capped.stop());

  // First, so that no connection of another test is still open.
  it('lets a new client in past eleven addresses holding idle connections, closing the one idle longest', async () => {
    // Eleven addresses, each at its per-client cap with connections that never send a byte: 44
    // idle connections for a total cap of 40.
    const idle: Client[] = [];
    try {
      for (let source = 1; source <= 11; source++)
        for (let i = 0; i < 4; i++) idle.push(await open(`127.0.2.${source}`, cappedPort));
      // Each connection past the cap took the place of the one idle longest: the first four.
      await Promise.all(idle.slice(0, 4).map((client) => client.closed));
      // A twelfth client is served, and its connection too closed the longest idle one.
      expect(await answerTo('127.0.3.1', cappedPort)).toMatch(/^HTTP\/1\.1 200/);
      await idle[4]!.closed;
      expect(idle.slice(5).filter((client) => client.socket.destroyed)).toEqual([]);
    } finally {
      for (const client of idle) client.socket.destroy();
    }
  });

  it('closes connections past the per-client cap unanswered, while other clients are served', async () => {
    const clients: Client[] = [];
    try {
      for (let i = 0; i < 4; i++) {
        const client = await held('127.0.0.2', cappedPort);
        expect(client).not.toBeNull();
        clients.push(client!);
      }
      // A fifth from the same address is closed before a byte is read...
      expect(await answerTo('127.0.0.2', cappedPort)).toBe('');
      // ...while another client is served.
      expect(await answerTo('127.0.0.3', cappedPort)).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const client of clients) client.socket.destroy();
    }
  });

  it('closes a new connection unanswered only while every open one is serving a request', async () => {
    const busy: Client[] = [];
    try {
      for (let i = 0; i < 40; i++) busy.push(await serving(`127.0.4.${1 + Math.floor(i / 4)}`, cappedPort));
      expect(await answerTo('127.0.0.5', cappedPort)).toBe('');
      expect(busy.filter((client) => client.socket.destroyed)).toEqual([]);
      busy.shift()!.socket.destroy();
      // Once the server has seen one close, there is room again.
      let answer = '';
      while (answer === '') answer = await answerTo('127.0.0.5', cappedPort);
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const client of busy) client.socket.destroy();
    }
  });
});

/**
 * A connection whose request is in progress: a batch request announced with Expect: 100-continue
 * and never sent. The server's "100 Continue" says it has read the headers and is waiting for the
 * body (RFC 9110 section 10.1.1).
 */
async function serving(from: string, to: number): Promise<Client> {
  const client = await open(from, to);
  client.socket.write(
    'POST /api/v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n',
  );
  await Promise.race([until(() => client.received().includes('\r\n\r\n')), client.closed]);
  expect(client.received(), `a request in progress from ${from}`).toMatch(/^HTTP\/1\.1 100 Continue/);
  return client;
}
