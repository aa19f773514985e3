import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type InProcessApi } from '../support/api.ts';

let server: InProcessApi;

beforeAll(async () => {
  server = await startApi({ MCP_ALLOWED_ORIGINS: '' });
});
afterAll(() => server.stop());

const ACCEPT = 'application/json, text/event-stream';
const LIST_TOOLS = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

function post(pathname: string, headers: Record<string, string>, body = LIST_TOOLS, baseUrl = server.baseUrl) {
  return fetch(`${baseUrl}${pathname}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      ...headers,
    },
    body,
  });
}

describe('MCP over Streamable HTTP, stateless', () => {
  it.each(['/mcp', '/mcp/docs'])('%s answers GET and DELETE with 405 and Allow: POST', async (pathname) => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.baseUrl}${pathname}`, {
        method,
        headers: { accept: 'text/event-stream' },
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: expect.any(Number), message: expect.any(String) },
      });
    }
  });

  it('answers without a session: no Mcp-Session-Id, JSON body, no-store', async () => {
    const response = await post('/mcp', {});
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const body = (await response.json()) as { result: { tools: unknown[] } };
    expect(body.result.tools.length).toBeGreaterThan(5);
  });

  it('refuses an Origin outside the allowed list with 403, serves allowed ones with CORS', async () => {
    const refused = await post('/mcp', { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const docsRefused = await post('/mcp/docs', { origin: 'http://localhost.evil.example' });
    expect(docsRefused.status).toBe(403);
    for (const origin of ['http://localhost:4321', 'http://127.0.0.1:8080']) {
      const allowed = await post('/mcp', { origin });
      expect(allowed.status, origin).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(origin);
    }
    const preflight = await fetch(`${server.baseUrl}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/MCP-Protocol-Version/i);
  });

  it('honours MCP_ALLOWED_ORIGINS when set', async () => {
    const configured = await startApi({ MCP_ALLOWED_ORIGINS: 'https://app.example' });
    try {
      const call = (origin: string) => post('/mcp', { origin }, LIST_TOOLS, configured.baseUrl);
      expect((await call('https://app.example')).status).toBe(200);
      expect((await call('http://localhost:4321')).status).toBe(403);
    } finally {
      await configured.stop();
    }
  });

  it('charges every JSON-RPC message one request of the quota shared with the API, before any work', async () => {
    const limited = await startApi({ READ_RATE_LIMIT: '9/60' });
    try {
      const call = async (body: unknown, pathname = '/mcp') => {
        const response = await post(pathname, {}, JSON.stringify(body), limited.baseUrl);
        return {
          status: response.status,
          remaining: response.headers.get('ratelimit-remaining'),
          response,
          body: response.status === 202 ? null : ((await response.json()) as unknown),
        };
      };
      const message = (id: number, method: string, params: unknown = {}) => ({ jsonrpc: '2.0', id, method, params });
      const toolCall = (id: number, name: string, args: unknown = {}) =>
        message(id, 'tools/call', { name, arguments: args });

      expect(await call({ jsonrpc: '2.0', method: 'notifications/initialized' })).toMatchObject({
        status: 202,
        remaining: '8',
      });
      expect(await call(message(1, 'tools/list'))).toMatchObject({ status: 200, remaining: '7' });
      // A tool call costs what its operation costs over HTTP: its one request is the message's.
      expect(await call(toolCall(2, 'sandbox_ping'))).toMatchObject({ status: 200, remaining: '6' });
      expect((await fetch(`${limited.baseUrl}/api/v1/projects?limit=1`)).headers.get('ratelimit-remaining')).toBe('5');

      // A batch of n costs n: unknown tools, docs tools and refused arguments included.
      const batch = await call([toolCall(3, 'no_such_tool'), toolCall(4, 'get_project', {})]);
      expect(batch).toMatchObject({ status: 200, remaining: '3' });
      expect((batch.body as unknown[]).length).toBe(2);
      expect(await call(toolCall(5, 'list_docs'), '/mcp/docs')).toMatchObject({ status: 200, remaining: '2' });

      // Past the cap the request is refused for one request, before any message is looked at.
      const flood = await call(Array.from({ length: 11 }, (_, i) => toolCall(10 + i, 'no_such_tool')));
      expect(flood).toMatchObject({
        status: 400,
        remaining: '1',
        body: { error: { data: { code: 'too_many_messages' } } },
      });

      expect(await call(message(30, 'tools/list'))).toMatchObject({ status: 200, remaining: '0' });
      const refused = await call(toolCall(31, 'sandbox_ping'));
      expect(refused.status).toBe(429);
      expect(refused.response.headers.get('retry-after')).toMatch(/^\d+$/);
      // Refused before its body is read, the refusal cannot name the request (JSON-RPC 2.0 section 5:
      // null when the id cannot be detected); a batch has no one id either.
      expect(refused.body).toMatchObject({
        id: null,
        error: { data: { code: 'rate_limited', requestId: refused.response.headers.get('x-request-id') } },
      });
      expect(flood.body).toMatchObject({ id: null });
    } finally {
      await limited.stop();
    }
  });

  it('refuses an over-quota client before its body is read or parsed', async () => {
    // 64 KB, which cost 4 requests (one per started 16 KiB).
    const large = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { pad: 'x'.repeat(63_900) } });
    const limited = await startApi({ READ_RATE_LIMIT: '4/60' });
    try {
      const served = await post('/mcp', {}, large, limited.baseUrl);
      expect(served.status).toBe(200);
      expect(served.headers.get('ratelimit-remaining')).toBe('0');
      // Over the quota, the same body is refused unparsed: its id is not known (null). A body
      // that is not JSON gets the same 429, not a parse error.
      for (const body of [large, large.slice(0, -100)]) {
        const refused = await post('/mcp', {}, body, limited.baseUrl);
        expect(refused.status).toBe(429);
        expect(await refused.json()).toMatchObject({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, data: { code: 'rate_limited', requestId: refused.headers.get('x-request-id') } },
        });
      }
      // Bodies of undeclared length, and bodies still arriving: tests/system/function-host-bodies.test.ts.
    } finally {
      await limited.stop();
    }
  });

  it('answers an unsupported MCP-Protocol-Version with 400', async () => {
    const response = await post('/mcp', { 'mcp-protocol-version': '1999-01-01' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/protocol version/i);
  });

  it.each(['/mcp', '/mcp/docs'])(
    "%s, 2025 era: the transport's refusals name the request's id when its body shows it",
    async (pathname) => {
      // Accept without text/event-stream (2025-11-25 transports, "Sending Messages to the Server").
      const notAcceptable = await post(pathname, { accept: 'application/json' });
      expect(notAcceptable.status).toBe(406);
      expect(await notAcceptable.json()).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32000 } });
      const named = await post(
        pathname,
        { accept: 'application/json' },
        JSON.stringify({ jsonrpc: '2.0', id: 'list-2', method: 'tools/list' }),
      );
      expect(await named.json()).toMatchObject({ id: 'list-2', error: { code: -32000 } });
      const notJson = await post(pathname, { 'content-type': 'text/plain' });
      expect(notJson.status).toBe(415);
      expect(await notJson.json()).toMatchObject({ id: 1, error: { code: -32000 } });
      // A notification has no id to name.
      const notification = await post(
        pathname,
        { accept: 'application/json' },
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      );
      expect(await notification.json()).toMatchObject({ id: null, error: { code: -32000 } });
    },
  );

  it('answers malformed JSON and oversized bodies with JSON-RPC errors, never 5xx', async () => {
    const malformed = await post('/mcp', {}, '{"jsonrpc":');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const huge = await post(
      '/mcp',
      {},
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { padding: 'x'.repeat(100_000) } }),
    );
    expect(huge.status).toBe(413);
    const notJson = await post('/mcp', { 'content-type': 'text/plain' });
    expect(notJson.status).toBe(415);
  });
});
