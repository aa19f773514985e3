import type { Client as ModernClient } from '@modelcontextprotocol/client';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type InProcessApi } from '../support/api.ts';
import { callTool, connectMcp } from '../support/mcp.ts';
import { comparable, connectModern as connectTo, MODERN_ENVELOPE, sendModern } from '../support/mcp-eras.ts';

let server: InProcessApi;
let legacy: LegacyClient;
const modern: ModernClient[] = [];

/** A v2 client of /mcp/docs connected with the given negotiation mode. */
async function connectModern(mode: 'auto' | { pin: string }): Promise<ModernClient> {
  const client = await connectTo(`${server.baseUrl}/mcp/docs`, mode);
  modern.push(client);
  return client;
}

beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '10000/60' });
  legacy = await connectMcp(`${server.baseUrl}/mcp/docs`);
});
afterAll(async () => {
  await legacy.close();
  for (const client of modern) await client.close();
  await server.stop();
});

describe('/mcp/docs serves both protocol eras on one endpoint', () => {
  it('a 1.x client ends in the 2025 era, a v2 client in 2026-07-28, pinned or negotiating', async () => {
    expect(legacy.getServerVersion()).toMatchObject({ name: 'portfolio-docs' });
    const pinned = await connectModern({ pin: '2026-07-28' });
    expect(pinned.getProtocolEra()).toBe('modern');
    expect(pinned.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const negotiating = await connectModern('auto');
    expect(negotiating.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(negotiating.getServerVersion()).toMatchObject({ name: 'portfolio-docs', version: '1.0.0' });
  });

  it('lists the same tools, in the same order, in both eras', async () => {
    const pinned = await connectModern({ pin: '2026-07-28' });
    const [old, now] = [(await legacy.listTools()).tools, (await pinned.listTools()).tools];
    expect(now.map((tool) => tool.name)).toEqual(['list_docs', 'get_doc', 'search_docs']);
    expect(now).toEqual(old);
  });

  it('answers the same tool calls with the same results in both eras', async () => {
    const pinned = await connectModern({ pin: '2026-07-28' });
    const calls: [string, Record<string, unknown>][] = [
      ['list_docs', {}],
      ['get_doc', { path: '/developers/cli' }],
      ['get_doc', { path: '/nowhere' }],
      ['search_docs', { q: 'idempotency', limit: 3 }],
      ['search_docs', { q: 'x', type: 'project' }],
    ];
    for (const [name, args] of calls) {
      const old = await callTool(legacy, name, args);
      const now = await pinned.callTool({ name, arguments: args });
      expect(comparable(now), name).toEqual(comparable(old));
    }
  });

  it('speaks the 2026-07-28 wire: server/discover, cache hints, resultType, serverInfo, header checks', async () => {
    const envelope = MODERN_ENVELOPE;
    const send = (id: number, method: string, params: Record<string, unknown>, headers: Record<string, string>) =>
      sendModern(`${server.baseUrl}/mcp/docs`, id, method, params, headers);

    const discover = await send(1, 'server/discover', {}, {});
    expect(discover.status).toBe(200);
    expect(discover.body.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining(['2026-07-28']),
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'portfolio-docs' } },
    });

    // Nothing listed changes between two builds: no list_changed is promised, as over initialize.
    expect(discover.body.result?.capabilities).toEqual({ tools: {}, resources: {}, prompts: {} });

    const list = await send(2, 'tools/list', {}, {});
    expect(list.body.result).toMatchObject({
      resultType: 'complete',
      ttlMs: 300_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'portfolio-docs' } },
    });

    const call = await send(3, 'tools/call', { name: 'list_docs', arguments: {} }, { 'mcp-name': 'list_docs' });
    expect(call.body.result).toMatchObject({ resultType: 'complete', structuredContent: { docs: expect.any(Array) } });

    const mismatch = await send(4, 'tools/call', { name: 'list_docs', arguments: {} }, { 'mcp-name': 'get_doc' });
    expect(mismatch).toMatchObject({ status: 400, body: { id: 4, error: { code: -32020 } } });

    // The header names another version than the body: a mismatch, before the version is looked at.
    const crossed = await send(5, 'tools/list', {}, { 'mcp-protocol-version': '2099-01-01' });
    expect(crossed).toMatchObject({ status: 400, body: { id: 5, error: { code: -32020 } } });

    const unsupported = await send(
      6,
      'tools/list',
      { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      { 'mcp-protocol-version': '2099-01-01' },
    );
    expect(unsupported).toMatchObject({
      status: 400,
      body: { id: 6, error: { code: -32022, data: { supported: expect.arrayContaining(['2026-07-28']) } } },
    });
  });
});
