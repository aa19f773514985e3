import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServicePath, serviceHandle, type Handle } from '../../functions/app/handle.ts';
import type { ApiRequest } from '../../functions/http/types.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { ROOT } from '../support/server.ts';

let server: InProcessApi;
let handle: Handle;

beforeAll(async () => {
  // The host below hands every request over as service.test, a name the MCP servers must be told.
  server = await startApi({ MCP_ALLOWED_HOSTS: 'service.test' });
  const built = (page: string) => readFileSync(path.join(ROOT, 'dist/client', `${page}.html`), 'utf8');
  handle = serviceHandle(server.api, [], built);
});
afterAll(() => server.stop());

/** A request as a host hands it over: no socket, no listener, nothing but the entry. */
function call(method: string, target: string): ApiRequest {
  const url = new URL(target, 'http://service.test');
  return {
    method,
    path: url.pathname,
    query: url.searchParams,
    headers: { host: 'service.test' },
    clientIp: '192.0.2.40',
    requestId: 'entry-test-0001',
    readBody: () => Promise.resolve(Buffer.alloc(0)),
  };
}

describe('the service entry, without a host', () => {
  it('knows its own paths without being built; every other path belongs to the host', () => {
    for (const owned of ['/api', '/api/v1/projects', '/api/health', '/oauth/token', '/contact', '/contact.md'])
      expect(isServicePath(owned), owned).toBe(true);
    for (const owned of ['/search', '/search.md', '/mcp', '/mcp/docs']) expect(isServicePath(owned), owned).toBe(true);
    for (const foreign of ['/', '/apis', '/contact/thanks', '/projects/leakhound', '/llms.txt', '/openapi.json'])
      expect(isServicePath(foreign), foreign).toBe(false);
  });

  it('answers the API through the router: its headers, its quota, its Error shape', async () => {
    const projects = await handle(call('GET', '/api/v1/projects'));
    expect(projects.status).toBe(200);
    expect(projects.headers['x-quota-tier']).toBe('anonymous');
    expect(projects.headers['ratelimit-limit']).toMatch(/^\d+$/);
    expect(projects.headers['x-request-id']).toBe('entry-test-0001');
    const missing = await handle(call('GET', '/api/v1/nothing-here'));
    expect(missing.status).toBe(404);
    expect(JSON.parse(String(missing.body))).toMatchObject({ code: 'not_found', requestId: 'entry-test-0001' });
  });

  it('answers the pages and the MCP servers from the endpoint table', async () => {
    const search = await handle(call('GET', '/search.md?q=api'));
    expect(search.status).toBe(200);
    expect(search.headers['content-type']).toMatch(/^text\/markdown/);
    expect(search.headers['ratelimit-remaining']).toMatch(/^\d+$/);
    const form = await handle(call('GET', '/contact'));
    expect(form.status).toBe(200);
    expect(String(form.body)).toContain('name="idempotency_key"');
    const mcp = await handle(call('GET', '/mcp'));
    expect(mcp.status).toBe(405);
    expect(mcp.headers.allow).toBe('POST');
  });

  it('answers a path it does not own with a plain 404, should a host hand it one', async () => {
    const answer = await handle(call('GET', '/projects/leakhound'));
    expect(answer).toEqual({
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: 'Not Found\n',
    });
  });
});
