import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../functions/http/request-context.ts';
import type { ApiRequest } from '../../functions/http/types.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { inProcessMcpEndpoint } from '../support/mcp-endpoint.ts';
import { mcpPost } from '../support/mcp-post.ts';
import { MODERN_ENVELOPE, MODERN_VERSION } from '../support/mcp-eras.ts';

/**
 * A public caller's message answered before but for its id gets that answer again
 * (functions/mcp/answer-memo.ts): the same bytes with its own id, still charged, and only where
 * the answer is the same for everyone: a reusable tool's success, asked anonymously in live mode.
 */

let server: InProcessApi;
let limited: InProcessApi;
beforeAll(async () => {
  [server, limited] = await Promise.all([
    startApi({ READ_RATE_LIMIT: '10000/60' }),
    startApi({ READ_RATE_LIMIT: '4/60' }),
  ]);
});
afterAll(() => Promise.all([server.stop(), limited.stop()]));

const LEGACY = '2025-11-25';
type Era = typeof LEGACY | typeof MODERN_VERSION;

function toolCall(era: Era, id: number | string, name: string, args: Record<string, unknown>) {
  const modern = era === MODERN_VERSION;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, ...(modern ? { _meta: MODERN_ENVELOPE } : {}) },
  });
  const headers: Record<string, string> = {
    host: 'localhost:4321',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': era,
    ...(modern ? { 'mcp-method': 'tools/call', 'mcp-name': name } : {}),
  };
  return { headers, body };
}

async function send(api: InProcessApi, era: Era, id: number | string, name: string, args: Record<string, unknown>) {
  const answer = await api.request({ method: 'POST', path: '/mcp', ...toolCall(era, id, name, args) });
  // The length is counted once for a kept answer (ApiResponse.bodyBytes): it must be its body's.
  expect(answer.headers['content-length']).toBe(String(answer.body.length));
  return {
    status: answer.status,
    headers: answer.headers,
    message: JSON.parse(answer.body.toString()) as Record<string, unknown>,
  };
}

describe('an answer given again', () => {
  it("is the same answer with the asker's own id, in both eras", async () => {
    for (const era of [LEGACY, MODERN_VERSION] as const) {
      const first = await send(server, era, 1, 'get_project', { slug: 'leakhound' });
      expect(first.status).toBe(200);
      for (const id of ['second', 3, 'é"', 'é-ü', -1, 0]) {
        const again = await send(server, era, id, 'get_project', { slug: 'leakhound' });
        expect(again.status).toBe(200);
        expect(again.headers['content-type']).toBe(first.headers['content-type']);
        expect(again.message).toEqual({ ...first.message, id });
      }
    }
  });

  it('never holds an error result: each names its own request', async () => {
    const ids = new Set<string>();
    for (let id = 1; id <= 3; id++) {
      const answer = await send(server, LEGACY, id, 'get_project', { slug: 'no-such-project' });
      const result = answer.message.result as { isError: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      const { code, requestId } = JSON.parse(result.content[0]!.text) as { code: string; requestId: string };
      expect(code).toBe('project_not_found');
      expect(requestId).toBe(answer.headers['x-request-id']);
      ids.add(requestId);
    }
    expect(ids.size).toBe(3);
  });

  it('is charged like any message: the quota runs out on kept answers too', async () => {
    for (let id = 1; id <= 4; id++) {
      const answer = await send(limited, LEGACY, id, 'get_project', { slug: 'leakhound' });
      expect(answer.status).toBe(200);
      expect(answer.headers['ratelimit-remaining']).toBe(String(4 - id));
    }
    const refused = await send(limited, LEGACY, 5, 'get_project', { slug: 'leakhound' });
    expect(refused.status).toBe(429);
    expect(refused.message).toMatchObject({ id: null, error: { data: { code: 'rate_limited' } } });
  });
});

describe('what is kept, and for whom', () => {
  /** The product endpoint for one kind of caller, counting the tool runs behind its answers. */
  function endpointFor(caller: Pick<RequestContext, 'keyStatus' | 'sandbox'>) {
    const runs = { count: 0 };
    const endpoint = inProcessMcpEndpoint(
      () => server.api.router,
      'product',
      caller,
      (options) => ({
        ...options,
        callTool: (...call) => {
          runs.count++;
          return options.callTool(...call);
        },
      }),
    );
    return { endpoint, runs };
  }

  function request(id: number, name: string, args: Record<string, unknown>): ApiRequest {
    const { headers, body } = toolCall(LEGACY, id, name, args);
    return mcpPost(headers, { body, requestId: `memo-${id}` });
  }

  /** How many times the tool ran for three calls alike but for their ids. */
  async function runsForThreeCalls(
    caller: Pick<RequestContext, 'keyStatus' | 'sandbox'>,
    name: string,
    args: Record<string, unknown>,
  ) {
    const { endpoint, runs } = endpointFor(caller);
    for (let id = 1; id <= 3; id++) expect((await endpoint(request(id, name, args))).status).toBe(200);
    return runs.count;
  }

  const PUBLIC = { keyStatus: 'none', sandbox: false } as const;

  it("keeps a reusable tool's success for public callers: the tool runs once", async () => {
    expect(await runsForThreeCalls(PUBLIC, 'get_project', { slug: 'leakhound' })).toBe(1);
    expect(await runsForThreeCalls(PUBLIC, 'list_projects', { limit: 2 })).toBe(1);
    expect(await runsForThreeCalls(PUBLIC, 'search', { q: 'rust' })).toBe(1);
  });

  it('runs every call of a tool whose answer can change, and every failed one', async () => {
    expect(await runsForThreeCalls(PUBLIC, 'sandbox_ping', {})).toBe(3);
    const started = await server.request({
      method: 'POST',
      path: '/api/v1/jobs',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const { jobId } = JSON.parse(started.body.toString()) as { jobId: string };
    expect(await runsForThreeCalls(PUBLIC, 'get_job', { job_id: jobId })).toBe(3);
    expect(await runsForThreeCalls(PUBLIC, 'get_project', { slug: 'no-such-project' })).toBe(3);
    // Other arguments are another answer.
    const { endpoint, runs } = endpointFor(PUBLIC);
    for (const slug of ['leakhound', 'seedling', 'leakhound']) await endpoint(request(1, 'get_project', { slug }));
    expect(runs.count).toBe(2);
  });

  it('keeps nothing for a caller with a key or in sandbox mode', async () => {
    expect(await runsForThreeCalls({ keyStatus: 'valid', sandbox: true }, 'get_project', { slug: 'leakhound' })).toBe(
      3,
    );
    expect(
      await runsForThreeCalls({ keyStatus: 'invalid', sandbox: false }, 'get_project', { slug: 'leakhound' }),
    ).toBe(3);
    expect(await runsForThreeCalls({ keyStatus: 'none', sandbox: true }, 'get_project', { slug: 'leakhound' })).toBe(3);
  });
});
