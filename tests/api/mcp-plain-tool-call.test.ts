import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type InProcessApi } from '../support/api.ts';
import { MODERN_ENVELOPE, MODERN_VERSION } from '../support/mcp-eras.ts';

/**
 * A plain tools/call is answered without the SDK's server and transport (functions/mcp/
 * plain-tool-call.ts). The same call made not plain by a `_meta` entry the SDK ignores goes
 * through the SDK: both answers must be the same, in both eras, on both servers, errors included.
 */

let server: InProcessApi;
beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '10000/60' });
});
afterAll(() => server.stop());

type Era = '2025-11-25' | typeof MODERN_VERSION;

/** One tools/call; `viaSdk` adds a `_meta` entry the SDK ignores and the plain path does not take. */
async function call(era: Era, path: string, id: number | string, name: string, args: unknown, viaSdk: boolean) {
  const modern = era === MODERN_VERSION;
  const meta = {
    ...(modern ? MODERN_ENVELOPE : {}),
    ...(viaSdk ? { 'example.com/trace': 'not read by the server' } : {}),
  };
  const answer = await server.request({
    method: 'POST',
    path,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': era,
      ...(modern ? { 'mcp-method': 'tools/call', 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) },
    }),
  });
  return { status: answer.status, contentType: answer.headers['content-type'], body: withoutRequestIds(answer.body) };
}

/** The answer as JSON, the request id inside error bodies (different on every request) left out. */
function withoutRequestIds(body: Buffer): unknown {
  const parsed = JSON.parse(body.toString()) as { result?: { content?: { type: string; text: string }[] } };
  for (const block of parsed.result?.content ?? []) {
    const { requestId: _requestId, ...rest } = JSON.parse(block.text) as Record<string, unknown>;
    block.text = JSON.stringify(rest);
  }
  return parsed;
}

const CALLS: [string, string, unknown][] = [
  ['/mcp', 'get_project', { slug: 'leakhound' }],
  ['/mcp', 'get_project', { slug: 'no-such-project' }],
  ['/mcp', 'get_project', {}],
  ['/mcp', 'list_projects', { limit: 2 }],
  ['/mcp', 'list_projects', { limit: 'many' }],
  ['/mcp', 'list_projects', { unknown: 1 }],
  ['/mcp', 'search', { q: 'rust' }],
  ['/mcp', 'compare_projects', { slugs: ['leakhound'] }],
  ['/mcp', 'sandbox_ping', {}],
  ['/mcp/docs', 'list_docs', {}],
  ['/mcp/docs', 'get_doc', { path: '/developers/cli' }],
  ['/mcp/docs', 'get_doc', { path: '/nowhere' }],
  ['/mcp/docs', 'search_docs', { q: 'idempotency', limit: 3 }],
];

describe('a plain tools/call answers as the SDK does', () => {
  it.each(['2025-11-25', MODERN_VERSION] as Era[])('in %s, on both servers, results and errors alike', async (era) => {
    let id = 0;
    for (const [path, name, args] of CALLS) {
      const plain = await call(era, path, ++id, name, args, false);
      const sdk = await call(era, path, id, name, args, true);
      expect(plain, `${path} ${name} ${JSON.stringify(args)}`).toEqual(sdk);
      expect(plain.status).toBe(200);
    }
    // A string id, and no arguments at all.
    expect(await call(era, '/mcp', 'call-1', 'sandbox_ping', undefined, false)).toEqual(
      await call(era, '/mcp', 'call-1', 'sandbox_ping', undefined, true),
    );
  });

  it('leaves an unknown tool to the SDK, which refuses it with the request id in both eras', async () => {
    for (const era of ['2025-11-25', MODERN_VERSION] as Era[]) {
      expect(await call(era, '/mcp', 9, 'no_such_tool', {}, false), era).toMatchObject({
        body: { id: 9, error: { code: -32602, message: expect.stringMatching(/Unknown tool/) } },
      });
    }
  });
});
