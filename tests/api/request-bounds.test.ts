import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LISTED_NAMES, MAX_QUERY_PARAMETERS } from '../../functions/http/query.ts';
import { MAX_TOOL_ARGUMENTS } from '../../functions/mcp/tool-registry.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { callTool, connectMcp, toolError } from '../support/mcp.ts';
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

  it(`names at most ${MAX_LISTED_NAMES} unknown arguments and counts the rest`, async () => {
    const read = toolError(await callTool(product, 'list_projects', wide(9)));
    expect(read.code).toBe('unknown_parameter');
    expect(read.message).toBe('Unknown query parameters: "u0", "u1", "u2", "u3", "u4" and 4 more.');
    const local = toolError(await callTool(docs, 'list_docs', wide(9)));
    expect(local.code).toBe('unknown_parameter');
    expect(local.message).toBe('Not arguments of this tool: "u0", "u1", "u2", "u3", "u4" and 4 more.');
  });
});
