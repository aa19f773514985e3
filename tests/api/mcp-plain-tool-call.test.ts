import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse } from '../../functions/http/types.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { inProcessMcpEndpoint } from '../support/mcp-endpoint.ts';
import { mcpPost } from '../support/mcp-post.ts';
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
  // Text blocks hold the API's JSON; resource links are compared as they are.
  for (const block of parsed.result?.content?.filter((one) => one.type === 'text') ?? []) {
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

/**
 * The plain path refuses exactly what the SDK refuses: every generated tools/call message, of
 * either era and of any shape (ids, names, arguments, the 2026-07-28 envelope and headers, right
 * or wrong), goes to the endpoint as it is and to one whose plain path can never answer (its
 * callTool finds no tool, so every message reaches the SDK). Both must accept or refuse it alike,
 * with the same status and JSON-RPC error code, and give the same result when they accept it.
 */
describe('the plain path and the SDK, over generated messages', () => {
  // A public caller (anonymous, live mode), so that the plain path's answers are also kept and
  // given again; the tools' API is the in-process one of this file.
  const PUBLIC = { keyStatus: 'none', sandbox: false } as const;
  const endpoint = (plain: boolean) =>
    inProcessMcpEndpoint(
      () => server.api.router,
      'docs',
      PUBLIC,
      (options) => (plain ? options : { ...options, callTool: () => Promise.resolve(undefined) }),
    );
  const withPlainPath = endpoint(true);
  const sdkOnly = endpoint(false);

  /**
   * Mostly the valid value, now and then one of the others (undefined: the key left out), so
   * that most messages are valid but for one or two parts, where the two paths could differ.
   */
  const mostly = <T>(valid: T, ...others: T[]) =>
    fc.oneof({ arbitrary: fc.constant(valid), weight: 5 }, { arbitrary: fc.constantFrom(...others), weight: 1 });
  const envelope = fc.record({
    'io.modelcontextprotocol/protocolVersion': mostly<unknown>(
      MODERN_VERSION,
      undefined,
      '2025-11-25',
      '2099-01-01',
      5,
    ),
    'io.modelcontextprotocol/clientInfo': mostly<unknown>(
      { name: 'c', version: '1' },
      undefined,
      {},
      { name: 'c' },
      { name: 5, version: '1' },
      'c',
      null,
    ),
    'io.modelcontextprotocol/clientCapabilities': mostly<unknown>(
      {},
      undefined,
      { sampling: {} },
      { sampling: 5 },
      { roots: { listChanged: 'yes' } },
      [],
      null,
    ),
    'example.com/trace': mostly<unknown>(undefined, 'x'),
  });
  const message = fc.record({
    modern: fc.boolean(),
    jsonrpc: mostly<unknown>('2.0', '1.0', undefined),
    id: fc.oneof(
      { arbitrary: fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), weight: 5 },
      { arbitrary: fc.constantFrom<unknown>(null, 1.5, undefined, {}), weight: 1 },
    ),
    name: mostly<unknown>('list_docs', 'search_docs', 'no_such_tool', 'bad name', '', 5),
    args: mostly<unknown>({}, undefined, { q: 'x' }, { limit: 2 }, { q: 5 }, [], 'x', null),
    meta: mostly<unknown>('envelope', undefined, {}, 'x', null),
    envelope,
    extraParam: mostly(false, true),
    header: fc.record({
      version: mostly<string | undefined>('era', undefined, MODERN_VERSION, '2025-11-25', '2025-06-18', '1999-01-01'),
      method: mostly<string | undefined>('era', undefined, 'tools/call', 'tools/list'),
      name: mostly<'same' | 'other' | undefined>('same', 'other', undefined),
    }),
  });

  function requestOf(generated: typeof message extends fc.Arbitrary<infer T> ? T : never): ApiRequest {
    const { modern, jsonrpc, id, name, args, meta, envelope: claimed, extraParam, header } = generated;
    const params: Record<string, unknown> = { name };
    if (args !== undefined) params.arguments = args;
    // A 2026-07-28 message carries its envelope as generated; a 2025 one only what it has besides.
    const entries = Object.entries(claimed).filter(
      ([key, value]) => value !== undefined && (modern || key.startsWith('example.com')),
    );
    if (meta === 'envelope') {
      if (entries.length > 0) params._meta = Object.fromEntries(entries);
    } else if (meta !== undefined) params._meta = meta;
    if (extraParam) params.task = { ttl: 1 };
    const body: Record<string, unknown> = { method: 'tools/call', params };
    if (jsonrpc !== undefined) body.jsonrpc = jsonrpc;
    if (id !== undefined) body.id = id;
    const headers: Record<string, string> = {
      host: 'localhost:4321',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const version = header.version === 'era' ? (modern ? MODERN_VERSION : '2025-11-25') : header.version;
    if (version !== undefined) headers['mcp-protocol-version'] = version;
    const method = header.method === 'era' ? (modern ? 'tools/call' : undefined) : header.method;
    if (method !== undefined) headers['mcp-method'] = method;
    if (header.name === 'other' || (header.name === 'same' && modern))
      headers['mcp-name'] = header.name === 'same' ? String(name) : 'other_tool';
    return mcpPost(headers, { body: JSON.stringify(body), path: '/mcp/docs', requestId: 'property' });
  }

  /** What a client can tell apart: the status, and the error code or the result. */
  function outcome(response: ApiResponse) {
    const text = response.body === null ? '' : response.body.toString();
    const parsed = (text === '' ? {} : JSON.parse(text)) as { error?: { code?: unknown }; result?: unknown };
    return { status: response.status, error: parsed.error?.code, result: parsed.result };
  }

  it('accept and refuse the same messages, with the same status and error code, in both eras', async () => {
    await fc.assert(
      fc.asyncProperty(message, async (generated) => {
        const plain = outcome(await withPlainPath(requestOf(generated)));
        const sdk = outcome(await sdkOnly(requestOf(generated)));
        expect(plain).toEqual(sdk);
      }),
      { numRuns: 400 },
    );
  });
});
