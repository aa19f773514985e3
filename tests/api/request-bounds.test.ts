import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LATEST_PROTOCOL_VERSION, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_JSON_DEPTH } from '../../functions/http/json-depth.ts';
import { flushLog } from '../../functions/log/log.ts';
import { MAX_LISTED_NAMES, MAX_QUERY_PARAMETERS } from '../../functions/http/query.ts';
import { BODY_BYTES_PER_REQUEST } from '../../functions/config/fixed-limits.ts';
import { MAX_TOOL_ARGUMENTS } from '../../functions/mcp/tool-registry.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { callTool, connectMcp, structured, toolError } from '../support/mcp.ts';
import { errorSchema } from '../support/schemas.ts';

let server: InProcessApi;
let product: Client;
let docs: Client;

beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '100000/60' });
  product = await connectMcp(`${server.baseUrl}/mcp`);
  docs = await connectMcp(`${server.baseUrl}/mcp/docs`);
});
afterAll(async () => {
  await product.close();
  await docs.close();
  await server.stop();
});

/** `count` distinct names: u0, u1, ... */
const names = (count: number) => Array.from({ length: count }, (_, i) => `u${i}`);

async function apiError(path: string) {
  const answer = await server.request({ path });
  return {
    status: answer.status,
    bytes: answer.body.length,
    body: errorSchema.parse(JSON.parse(answer.body.toString())),
  };
}

describe('query parameters per request', () => {
  it(`refuses more than ${MAX_QUERY_PARAMETERS} with too_many_parameters, on every operation, in a short answer`, async () => {
    const query = names(4_000).join('&');
    for (const path of ['/api/v1/projects', '/api/search', '/api/health', '/api/v1/projects/x', '/api/v1']) {
      const refused = await apiError(`${path}?${query}`);
      expect([refused.status, refused.body.code], path).toEqual([400, 'too_many_parameters']);
      expect(refused.body.message).toContain(String(MAX_QUERY_PARAMETERS));
      expect(refused.bytes, path).toBeLessThan(1024);
    }
    // At the bound, the unknown ones are named.
    const atBound = await apiError(`/api/health?${names(MAX_QUERY_PARAMETERS).join('&')}`);
    expect(atBound.body.code).toBe('unknown_parameter');
  });

  it(`names at most ${MAX_LISTED_NAMES} unknown parameters and counts the rest`, async () => {
    const refused = await apiError(`/api/v1/projects?limit=2&${names(12).join('&')}`);
    expect(refused.body.code).toBe('unknown_parameter');
    expect(refused.body.message).toBe('Unknown query parameters: "u0", "u1", "u2", "u3", "u4" and 7 more.');
  });
});

describe('large bodies', () => {
  it(`count a batch over ${BODY_BYTES_PER_REQUEST} bytes as one read per started ${BODY_BYTES_PER_REQUEST} bytes, valid or not`, async () => {
    const send = async (body: string) => {
      const answer = await server.request({
        method: 'POST',
        path: '/api/v1/batch',
        headers: { 'content-type': 'application/json' },
        body,
      });
      return { status: answer.status, remaining: Number(answer.headers['ratelimit-remaining']) };
    };
    const one = JSON.stringify({ operations: [{ op: 'getProject', id: 'no-such-project' }] });
    const three = JSON.stringify({ operations: Array.from({ length: 3 }, () => ({ op: 'getProject', id: 'none' })) });
    const overTwoShares = ' '.repeat(2 * BODY_BYTES_PER_REQUEST);
    const first = await send(one);
    const small = await send(one);
    // Just over two shares of whitespace: three reads, though it holds one operation.
    const large = await send(`${one}${overTwoShares}`);
    // The same refused for an unknown field: three reads still.
    const refused = await send(`{"operations": [], "padding": "${'x'.repeat(2 * BODY_BYTES_PER_REQUEST)}"}`);
    // Three operations in a body of three shares: three reads, not five.
    const both = await send(`${three}${overTwoShares}`);
    expect([first, small, large, refused, both].map((answer) => answer.status)).toEqual([422, 422, 422, 400, 422]);
    expect([
      first.remaining - small.remaining,
      small.remaining - large.remaining,
      large.remaining - refused.remaining,
      refused.remaining - both.remaining,
    ]).toEqual([1, 3, 3, 3]);
  });
});

describe('MCP tool arguments per call', () => {
  const wide = (count: number) => Object.fromEntries(names(count).map((name) => [name, 1]));

  it.each([
    ['product', 'list_projects'],
    ['product', 'search'],
    ['product', 'sandbox_ping'],
    ['product', 'submit_contact'],
    ['product', 'compare_projects'],
    ['docs', 'list_docs'],
    ['docs', 'search_docs'],
  ])(`%s %s refuses more than ${MAX_TOOL_ARGUMENTS} arguments with too_many_parameters`, async (server, tool) => {
    const client = server === 'product' ? product : docs;
    for (const count of [MAX_TOOL_ARGUMENTS + 1, 5_000]) {
      const result = await callTool(client, tool, wide(count));
      const error = toolError(result);
      expect(error.code, `${count}`).toBe('too_many_parameters');
      expect(error.message).toContain(String(MAX_TOOL_ARGUMENTS));
      expect(JSON.stringify(result).length).toBeLessThan(1024);
    }
  });

  it(`counts a body over ${BODY_BYTES_PER_REQUEST} bytes as one request per started ${BODY_BYTES_PER_REQUEST} bytes`, async () => {
    const remaining = async (args: Record<string, unknown>) => {
      const response = await fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'sandbox_ping', arguments: args },
        }),
      });
      await response.arrayBuffer();
      return Number(response.headers.get('ratelimit-remaining'));
    };
    const before = await remaining({});
    const small = await remaining({});
    // Just over three shares: four requests.
    const large = await remaining({ padding: 'x'.repeat(3 * BODY_BYTES_PER_REQUEST + 1) });
    expect([before - small, small - large]).toEqual([1, 4]);
  });

  it(`names at most ${MAX_LISTED_NAMES} unknown arguments and counts the rest`, async () => {
    const read = toolError(await callTool(product, 'list_projects', wide(9)));
    expect(read.code).toBe('unknown_parameter');
    expect(read.message).toBe('Unknown query parameters: "u0", "u1", "u2", "u3", "u4" and 4 more.');
    const local = toolError(await callTool(docs, 'list_docs', wide(9)));
    expect(local.code).toBe('unknown_parameter');
    expect(local.message).toBe('Not arguments of this tool: "u0", "u1", "u2", "u3", "u4" and 4 more.');
  });
});

describe('deeply nested JSON', () => {
  /** Arrays nested `depth` levels, as JSON text (a JavaScript value that deep could not be stringified here). */
  const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  /** The JSON log lines written while `run` runs (the API runs in this process). */
  async function logDuring(run: () => Promise<void>): Promise<string[]> {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(
        ...String(chunk)
          .split('\n')
          .filter((line) => line.startsWith('{')),
      );
      return true;
    });
    try {
      await run();
      flushLog();
    } finally {
      spy.mockRestore();
    }
    return lines;
  }

  async function rawToolCall(path: string, tool: string, args: string) {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      },
      body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"${tool}","arguments":${args}}}`,
    });
    expect(response.status).toBe(200);
    const { result } = (await response.json()) as { result: CallToolResult };
    return result;
  }

  it.each([
    ['/mcp', 'list_projects', 'domain'],
    ['/mcp', 'get_project', 'slug'],
    ['/mcp', 'search', 'q'],
    ['/mcp', 'submit_contact', 'message'],
    ['/mcp', 'create_job', 'input'],
    ['/mcp', 'get_job', 'job_id'],
    ['/mcp', 'sandbox_ping', 'x'],
    ['/mcp', 'compare_projects', 'slugs'],
    ['/mcp/docs', 'get_doc', 'path'],
    ['/mcp/docs', 'search_docs', 'q'],
  ])(`%s %s: an argument nested 20,000 deep is invalid_parameter, with nothing logged`, async (path, tool, name) => {
    let result: CallToolResult | undefined;
    const log = await logDuring(async () => {
      result = await rawToolCall(path, tool, `{"${name}":${deep(20_000)}}`);
    });
    const error = toolError(result!);
    expect([error.code, error.message]).toEqual([
      'invalid_parameter',
      `Argument "${name}" nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
    ]);
    expect(log.filter((line) => line.includes('"level":"error"') || line.includes('stack'))).toEqual([]);
  });

  it(`serves an argument nested ${MAX_JSON_DEPTH} deep as the operation reads it`, async () => {
    const result = await rawToolCall('/mcp', 'list_projects', `{"domain":${deep(MAX_JSON_DEPTH)}}`);
    // The domain filter is the JSON text, which names no domain.
    expect(structured(result)).toMatchObject({ data: [] });
  });

  it('answers a deeply nested REST body with a 400 validation_failed, replays included, with nothing logged', async () => {
    const key = randomUUID();
    const sent = await server.request({
      method: 'POST',
      path: '/api/v1/contact?sandbox=true',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', message: 'A message long enough to pass.' }),
    });
    expect(sent.status).toBe(200);
    const posts: { path: string; key?: string; depth?: number }[] = [
      { path: '/api/v1/contact?sandbox=true', key },
      { path: '/api/v1/contact?sandbox=true', key: randomUUID() },
      { path: '/api/v1/batch' },
      { path: '/api/v1/jobs' },
      // Its body may have 4 KiB.
      { path: '/api/v1/keys', depth: 1_500 },
    ];
    const answers: { path: string; status: number; code: string; errors: unknown }[] = [];
    const log = await logDuring(async () => {
      for (const post of posts) {
        const answer = await server.request({
          method: 'POST',
          path: post.path,
          headers: { 'content-type': 'application/json', ...(post.key ? { 'idempotency-key': post.key } : {}) },
          body: `{"name":${deep(post.depth ?? 7_000)}}`,
        });
        const body = errorSchema.passthrough().parse(JSON.parse(answer.body.toString()));
        answers.push({ path: post.path, status: answer.status, code: body.code, errors: body.errors });
      }
    });
    for (const answer of answers) {
      expect(answer).toEqual({
        path: answer.path,
        status: 400,
        code: 'validation_failed',
        errors: [{ field: 'body', problem: `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels` }],
      });
    }
    expect(log.filter((line) => line.includes('"level":"error"') || line.includes('stack'))).toEqual([]);
  });
});
