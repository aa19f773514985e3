import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../support/engines.ts';
import { startFetchHost, type FetchHost } from '../support/fetch-host.ts';
import { errorSchema } from '../support/schemas.ts';

/**
 * Request bodies of any size and framing reach the function (functions/hosts/fetch/) through a
 * minimal Node host (tests/support/fetch-host-child.mjs, whose conversion is
 * tests/support/request-body-stream.mjs): each is bounded by the handler's reader, refused in the
 * error shape, and none takes the host process down. Each case comes from its own loopback
 * address, so each has a quota of its own.
 */

const MIB = Buffer.alloc(1024 * 1024, 'x');
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface Sent {
  /** Headers as given: without Content-Length the body goes chunked. */
  headers: Record<string, string>;
  /** Written in 16 KiB pieces (one write when `oneWrite`); `end: false` leaves the body unfinished. */
  body: Buffer;
  oneWrite?: boolean;
  end?: boolean;
}

/** One POST from `from`, answered as status and text; the connection is closed once answered. */
function post(baseUrl: string, from: string, path: string, sent: Sent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, baseUrl),
      { method: 'POST', headers: sent.headers, localAddress: from, agent: false },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text });
          req.destroy();
        });
      },
    );
    // The server may close the connection while the rest of a refused body is still being sent.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    if (sent.oneWrite) req.write(sent.body);
    else for (let at = 0; at < sent.body.length; at += 16 * 1024) req.write(sent.body.subarray(at, at + 16 * 1024));
    if (sent.end !== false) req.end();
  });
}

describe.skipIf(TEST_ENGINE !== 'shared')('request bodies through a Node-hosted fetch handler', () => {
  let host: FetchHost;
  let address = 1;
  /** A loopback address not used by another case yet. */
  const fresh = () => `127.0.3.${++address}`;

  beforeAll(async () => {
    host = await startFetchHost({ READ_RATE_LIMIT: '2/60' });
  });
  afterAll(async () => host?.stop());

  /** The host process still answers (its own control path, which no quota counts). */
  async function expectUp() {
    expect(await host.settled()).toMatchObject({ instances: expect.any(Number) });
  }

  it.each([
    ['in pieces', false],
    ['in one write', true],
  ])('refuses a chunked 1 MB body (%s) with 413 in the error shape, and stays up', async (_, oneWrite) => {
    const batch = await post(host.baseUrl, fresh(), '/api/v1/batch', {
      headers: { 'content-type': 'application/json' },
      body: MIB,
      oneWrite,
    });
    expect(batch.status).toBe(413);
    expect(errorSchema.parse(JSON.parse(batch.text)).code).toBe('payload_too_large');
    await expectUp();

    const mcp = await post(host.baseUrl, fresh(), '/mcp', { headers: MCP_HEADERS, body: MIB, oneWrite });
    expect(mcp.status).toBe(413);
    const answer = JSON.parse(mcp.text) as { error: { data: unknown } };
    expect(errorSchema.parse(answer.error.data).code).toBe('payload_too_large');
    await expectUp();
  });

  it('refuses an overstated Content-Length at once, before the body arrives', async () => {
    const refused = await post(host.baseUrl, fresh(), '/api/v1/batch', {
      headers: { 'content-type': 'application/json', 'content-length': String(MIB.length) },
      body: Buffer.from('{"operations":'),
      end: false,
    });
    expect(refused.status).toBe(413);
    expect(errorSchema.parse(JSON.parse(refused.text)).code).toBe('payload_too_large');
    await expectUp();
  });

  it('reads only the declared bytes of an understated Content-Length, and stays up', async () => {
    const answered = await post(host.baseUrl, fresh(), '/api/v1/batch', {
      headers: { 'content-type': 'application/json', 'content-length': '100' },
      body: MIB,
    });
    // The first 100 bytes are the body, not JSON; the rest is no request: node:http answers that
    // 400 itself when it comes first, or else the function's 400 (invalid_json) is the answer.
    expect(answered.status).toBe(400);
    if (answered.text !== '') expect(errorSchema.parse(JSON.parse(answered.text)).code).toBe('invalid_json');
    await expectUp();
  });

  it('refuses an over-quota MCP POST before its body has arrived, with id null', async () => {
    const from = fresh();
    const listTools = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
    for (let i = 0; i < 2; i++)
      expect((await post(host.baseUrl, from, '/mcp', { headers: MCP_HEADERS, body: listTools })).status).toBe(200);
    // 64 KB declared, 1 KB sent, the rest never: the answer cannot have waited for the body.
    const refused = await post(host.baseUrl, from, '/mcp', {
      headers: { ...MCP_HEADERS, 'content-length': '64000' },
      body: Buffer.alloc(1024, '['),
      end: false,
    });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text)).toMatchObject({ id: null, error: { data: { code: 'rate_limited' } } });
  });

  it('charges an undeclared body its further 16 KiB shares once read, naming the request when that refuses it', async () => {
    const from = fresh();
    const padded = Buffer.from(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 41,
        method: 'tools/call',
        params: { name: 'sandbox_ping', arguments: { padding: 'x'.repeat(40_000) } },
      }),
    );
    // Chunked: one request is paid before the body is read (of a quota of two), then two more are owed.
    const refused = await post(host.baseUrl, from, '/mcp', { headers: MCP_HEADERS, body: padded });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text)).toMatchObject({ id: 41, error: { data: { code: 'rate_limited' } } });
  });
});
