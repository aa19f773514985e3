import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../functions/http/types.ts';
import type { McpServerId } from '../../functions/mcp/server-identity.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { inProcessMcpEndpoint } from '../support/mcp-endpoint.ts';
import { mcpPost } from '../support/mcp-post.ts';
import { MODERN_ENVELOPE, MODERN_VERSION } from '../support/mcp-eras.ts';

/**
 * initialize, notifications/initialized, the lists, server/discover and ping are answered with
 * bytes the SDK made once per shape, the request's id put in (functions/mcp/prepared-answers.ts).
 * The same message made a different shape by a `_meta` entry the SDK ignores goes through the
 * SDK: both answers must be the same bytes, status and headers, for every method, in both eras,
 * on both servers, with numeric and string ids; and the admission refuses both alike.
 */

let server: InProcessApi;
beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '10000/60' });
});
afterAll(() => server.stop());

type Era = '2025-11-25' | typeof MODERN_VERSION;
const LEGACY = '2025-11-25';
const ERAS: readonly Era[] = [LEGACY, MODERN_VERSION];
const PATHS: Record<McpServerId, string> = { product: '/mcp', docs: '/mcp/docs' };
const SDK_ONLY = { 'example.com/trace': 'not read by the server' };

const METHODS: Record<Era, string[]> = {
  [LEGACY]: [
    'initialize',
    'notifications/initialized',
    'ping',
    'tools/list',
    'resources/list',
    'resources/templates/list',
    'prompts/list',
  ],
  [MODERN_VERSION]: ['server/discover', 'tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'],
};

/** One message of the era; `viaSdk` adds a `_meta` entry the SDK ignores and the prepared answers do not take. */
function message(era: Era, method: string, id: number | string, viaSdk: boolean, headers: Record<string, string> = {}) {
  const modern = era === MODERN_VERSION;
  const meta = { ...(modern ? MODERN_ENVELOPE : {}), ...(viaSdk ? SDK_ONLY : {}) };
  const params: Record<string, unknown> =
    method === 'initialize'
      ? { protocolVersion: LEGACY, capabilities: { roots: {} }, clientInfo: { name: 'tests', version: '1.0.0' } }
      : {};
  if (Object.keys(meta).length > 0) params._meta = meta;
  const notification = method.startsWith('notifications/');
  return {
    headers: {
      host: 'localhost:4321',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      // A 2025 client names no version before initialize has negotiated one.
      ...(method === 'initialize' ? {} : { 'mcp-protocol-version': era }),
      ...(modern ? { 'mcp-method': method } : {}),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      ...(notification ? {} : { id }),
      method,
      ...(Object.keys(params).length > 0 ? { params } : {}),
    }),
  };
}

/** Headers that differ between two requests by design: the request id, the quota left. */
const PER_REQUEST = /^(x-request-id|ratelimit-.*)$/;

async function send(path: string, request: ReturnType<typeof message>) {
  const answer = await server.request({ method: 'POST', path, ...request });
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !PER_REQUEST.test(name)));
  return { status: answer.status, headers, body: answer.body.toString() };
}

describe('prepared answers are the SDK answers, byte for byte', () => {
  for (const era of ERAS)
    for (const id of Object.keys(PATHS) as McpServerId[])
      it(`${era}, ${PATHS[id]}: every method, numeric and string ids`, async () => {
        for (const method of METHODS[era])
          for (const requestId of [7, 'call-α "quoted"', 0, -3, 9007199254740991]) {
            // Twice: the first may make the prepared answer, the second certainly uses it.
            for (let round = 0; round < 2; round++) {
              const prepared = await send(PATHS[id], message(era, method, requestId, false));
              const sdk = await send(PATHS[id], message(era, method, requestId, true));
              expect(prepared, `${method} id ${JSON.stringify(requestId)}`).toEqual(sdk);
            }
          }
      });

  it('answers each as the methods ask: a result naming the id, 202 with no body for the notification', async () => {
    const init = await send('/mcp', message(LEGACY, 'initialize', 'x-1', false));
    expect(init.status).toBe(200);
    expect(JSON.parse(init.body)).toMatchObject({ id: 'x-1', result: { protocolVersion: LEGACY, serverInfo: {} } });
    const initialized = await send('/mcp', message(LEGACY, 'notifications/initialized', 0, false));
    expect(initialized).toMatchObject({ status: 202, body: '' });
    const discover = await send('/mcp/docs', message(MODERN_VERSION, 'server/discover', 12, false));
    expect(JSON.parse(discover.body)).toMatchObject({
      id: 12,
      result: { supportedVersions: [MODERN_VERSION], resultType: 'complete' },
    });
    const tools = JSON.parse((await send('/mcp', message(LEGACY, 'tools/list', 3, false))).body) as {
      result: { tools: { name: string }[] };
    };
    expect(tools.result.tools.map((tool) => tool.name)).toContain('get_project');
  });

  it('negotiates per requested version, as the SDK does', async () => {
    for (const requested of ['2025-06-18', '2099-01-01', '2024-10-07']) {
      const ask = (viaSdk: boolean) => {
        const request = message(LEGACY, 'initialize', 1, viaSdk);
        const body = JSON.parse(request.body) as { params: { protocolVersion: string } };
        body.params.protocolVersion = requested;
        return send('/mcp', { ...request, body: JSON.stringify(body) });
      };
      const prepared = await ask(false);
      expect(prepared).toEqual(await ask(true));
      expect(JSON.parse(prepared.body)).toMatchObject({
        result: { protocolVersion: requested === '2025-06-18' ? requested : LEGACY },
      });
    }
  });
});

describe('the admission refuses a prepared message as it refuses any', () => {
  /** Status, JSON-RPC error code and id, and the API error code in `data`. */
  const refusal = (answer: { status: number; body: string }) => {
    const parsed = JSON.parse(answer.body) as { id?: unknown; error?: { code?: number; data?: { code?: string } } };
    return { status: answer.status, id: parsed.id, code: parsed.error?.code, apiCode: parsed.error?.data?.code };
  };

  it.each(ERAS)('%s: bad Host, bad Origin, wrong Accept', async (era) => {
    const method = era === LEGACY ? 'initialize' : 'server/discover';
    // The 2025 transport refuses an Accept without event streams (406); the 2026-07-28 handler
    // answers whatever the Accept. Prepared answers take neither: the SDK answers as it does.
    const cases: [string, Record<string, string>, number][] = [
      ['bad Host', { host: 'evil.example' }, 403],
      ['bad Origin', { origin: 'https://evil.example' }, 403],
      ['wrong Accept', { accept: 'application/json' }, era === LEGACY ? 406 : 200],
    ];
    // Warm: the shape's prepared answer exists before the refused requests.
    expect((await send('/mcp', message(era, method, 1, false))).status).toBe(200);
    for (const [name, headers, status] of cases) {
      const prepared = refusal(await send('/mcp', message(era, method, 5, false, headers)));
      const sdk = refusal(await send('/mcp', message(era, method, 5, true, headers)));
      expect(prepared, name).toEqual(sdk);
      expect(prepared, name).toMatchObject({ status, id: 5 });
    }
  });

  it('charges the quota per message and refuses an over-quota client', async () => {
    const limited = await startApi({ READ_RATE_LIMIT: '3/60' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const answer = await limited.request({
          method: 'POST',
          path: '/mcp',
          ...message(LEGACY, 'tools/list', i, false),
        });
        codes.push(answer.status);
        if (answer.status === 200) expect(answer.headers['ratelimit-remaining']).toBe(String(2 - i));
      }
      expect(codes).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await limited.stop();
    }
  });
});

describe('a prepared answer is made once per shape', () => {
  let builds = 0;
  // No tool call takes the plain path, and nothing is kept for the next caller (none is public).
  const endpoint = inProcessMcpEndpoint(
    () => server.api.router,
    'docs',
    {},
    (options) => ({
      ...options,
      buildServer: (caller) => {
        builds++;
        return options.buildServer(caller);
      },
      callTool: () => Promise.resolve(undefined),
      reusableTool: () => false,
    }),
  );
  const request = (era: Era, method: string, id: number, viaSdk = false): ApiRequest => {
    const { headers, body } = message(era, method, id, viaSdk);
    return mcpPost(headers, { body, path: '/mcp/docs', requestId: 'prepared' });
  };

  it('builds the SDK server for the first request of a shape only, in both eras', async () => {
    for (const era of ERAS)
      for (const method of METHODS[era]) {
        await endpoint(request(era, method, 1));
        const before = builds;
        for (let id = 2; id < 6; id++) expect((await endpoint(request(era, method, id))).status).toBeLessThan(300);
        expect(builds, `${era} ${method}`).toBe(before);
        // Another shape (an ignored `_meta` entry) is the SDK's, every time.
        await endpoint(request(era, method, 6, true));
        expect(builds, `${era} ${method} via the SDK`).toBe(before + 1);
      }
  });
});
