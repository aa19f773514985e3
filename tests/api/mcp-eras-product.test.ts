import { randomUUID } from 'node:crypto';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type InProcessApi } from '../support/api.ts';
import { postContact, storedInbox, VALID } from '../support/contact.ts';
import { callTool, connectMcp, PRODUCT_TOOL_NAMES } from '../support/mcp.ts';
import { comparable, connectModern, MODERN_VERSION, sendModern } from '../support/mcp-eras.ts';

// /mcp/docs on both eras is tests/api/mcp-eras.test.ts; this is the product server on the same endpoint code.
let server: InProcessApi;
let legacy: LegacyClient;
let modern: ModernClient;

beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '10000/60', CONTACT_RATE_LIMIT: '20/600' });
  legacy = await connectMcp(`${server.baseUrl}/mcp`);
  modern = await connectModern(`${server.baseUrl}/mcp`, 'auto');
});
afterAll(async () => {
  await legacy.close();
  await modern.close();
  await server.stop();
});

const url = () => `${server.baseUrl}/mcp`;

describe('/mcp serves both protocol eras on one endpoint', () => {
  it('a 1.x client ends in the 2025 era, a v2 client in 2026-07-28, pinned or negotiating', async () => {
    const pinned = await connectModern(url(), { pin: MODERN_VERSION });
    expect(pinned.getNegotiatedProtocolVersion()).toBe(MODERN_VERSION);
    await pinned.close();
    expect((legacy.transport as LegacyTransport).protocolVersion).toBe('2025-11-25');
    expect(legacy.getServerVersion()).toMatchObject({ name: 'portfolio', version: '1.0.0' });
    expect(modern.getProtocolEra()).toBe('modern');
    expect(modern.getNegotiatedProtocolVersion()).toBe(MODERN_VERSION);
    expect(modern.getServerVersion()).toMatchObject({ name: 'portfolio', version: '1.0.0' });
    // The same capabilities in both eras, without a listChanged that these lists never use.
    expect(modern.getServerCapabilities()).toEqual(legacy.getServerCapabilities());
    // extensions: the MCP Apps views (tests/api/mcp-apps.test.ts).
    expect(modern.getServerCapabilities()).toEqual({
      tools: {},
      resources: {},
      completions: {},
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
    });
    expect(modern.getInstructions()).toBe(legacy.getInstructions());
  });

  it('lists the same tools, in the same order, in both eras', async () => {
    const [old, now] = [(await legacy.listTools()).tools, (await modern.listTools()).tools];
    expect(now.map((tool) => tool.name)).toEqual(PRODUCT_TOOL_NAMES);
    expect(now).toEqual(old);
  });

  it('answers the same tool calls with the same results in both eras', async () => {
    const [first, second] = (await legacy.listResources()).resources
      .filter((resource) => resource.uri.endsWith('.md'))
      .map((resource) => resource.name);
    const calls: [string, Record<string, unknown>][] = [
      ['list_projects', { limit: 3 }],
      ['list_projects', { limit: 500 }],
      ['get_project', { slug: first! }],
      ['get_project', { slug: 'no-such-project' }],
      ['search', { q: 'idempotency', limit: 3 }],
      ['sandbox_ping', {}],
      ['compare_projects', { slugs: [first!, second!] }],
      ['get_job', { job_id: 'job_missing' }],
      ['create_job', { task: 'mine-bitcoin' }],
    ];
    for (const [name, args] of calls) {
      const old = await callTool(legacy, name, args);
      const now = await modern.callTool({ name, arguments: args });
      expect(comparable(now), name).toEqual(comparable(old));
    }
    await expect(modern.callTool({ name: 'drop_tables', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('submit_contact sends once per idempotency key, whichever era retries', async () => {
    const key = randomUUID();
    const message = { ...VALID, message: `Sent in one era, retried in the other (${key}).` };
    const old = await callTool(legacy, 'submit_contact', { ...message, idempotency_key: key });
    expect(old.structuredContent).toEqual({ success: true });
    const retried = await modern.callTool({ name: 'submit_contact', arguments: { ...message, idempotency_key: key } });
    expect(comparable(retried)).toEqual(comparable(old));
    const replayed = await postContact(server.baseUrl, message, { key });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    const reused = await modern.callTool({
      name: 'submit_contact',
      arguments: { ...message, message: 'Another message, the same key.', idempotency_key: key },
    });
    expect(reused.isError).toBe(true);
    expect(JSON.parse((reused.content as { text: string }[])[0]!.text)).toMatchObject({
      code: 'idempotency_key_reused',
    });
    expect((await storedInbox(server.dataDir)).filter((entry) => entry.message === message.message)).toHaveLength(1);
  });

  it('lists and reads the same resources in both eras; a missing project is -32602 with its URI in both', async () => {
    const [oldList, nowList] = [(await legacy.listResources()).resources, (await modern.listResources()).resources];
    expect(nowList).toEqual(oldList);
    expect((await modern.listResourceTemplates()).resourceTemplates).toEqual(
      (await legacy.listResourceTemplates()).resourceTemplates,
    );
    const project = oldList.find((resource) => resource.uri.endsWith('.md'))!;
    expect((await modern.readResource({ uri: project.uri })).contents).toEqual(
      (await legacy.readResource({ uri: project.uri })).contents,
    );
    const missing = project.uri.replace(project.name, 'no-such-project');
    // SDK v2 answers a resources/read miss with -32602 and data.uri in every era (the 1.x server
    // sent -32002 in the 2025 era); 2026-07-28 requires -32602, and clients accept either.
    for (const client of [legacy, modern])
      await expect(client.readResource({ uri: missing })).rejects.toMatchObject({
        code: -32602,
        data: { uri: missing },
        message: expect.stringMatching(/not found/i),
      });
  });

  it('completes a project slug the same in both eras', async () => {
    const slug = (await legacy.listResources()).resources.find((resource) => resource.uri.endsWith('.md'))!.name;
    const [template] = (await legacy.listResourceTemplates()).resourceTemplates;
    const ref = { type: 'ref/resource' as const, uri: template!.uriTemplate };
    const request = { ref, argument: { name: 'slug', value: slug.slice(0, 2) } };
    const [old, now] = [await legacy.complete(request), await modern.complete(request)];
    expect(now.completion.values).toContain(slug);
    expect(now.completion).toEqual(old.completion);
  });

  it('speaks the 2026-07-28 wire: cache hints that follow a build on lists and reads, serverInfo, header checks', async () => {
    const discover = await sendModern(url(), 1, 'server/discover', {}, {});
    expect(discover.body.result).toMatchObject({
      resultType: 'complete',
      ttlMs: 300_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'portfolio' } },
    });
    for (const [id, method] of [
      [2, 'tools/list'],
      [3, 'resources/list'],
      [4, 'resources/templates/list'],
    ] as const) {
      const list = await sendModern(url(), id, method, {}, {});
      expect(list.body.result, method).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' });
    }
    const uri = ((await sendModern(url(), 5, 'resources/list', {}, {})).body.result!.resources as { uri: string }[])[0]!
      .uri;
    const read = await sendModern(url(), 6, 'resources/read', { uri }, { 'mcp-name': uri });
    expect(read.body.result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' });

    const call = await sendModern(
      url(),
      7,
      'tools/call',
      { name: 'sandbox_ping', arguments: {} },
      {
        'mcp-name': 'sandbox_ping',
      },
    );
    expect(call.body.result).toMatchObject({ resultType: 'complete', structuredContent: { pong: true } });
    const mismatch = await sendModern(
      url(),
      8,
      'tools/call',
      { name: 'sandbox_ping', arguments: {} },
      {
        'mcp-name': 'search',
      },
    );
    expect(mismatch).toMatchObject({ status: 400, body: { id: 8, error: { code: -32020 } } });
  });
});
