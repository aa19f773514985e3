import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectMcp } from '../support/mcp.ts';
import { freshDataDir, ROOT, startServer, type RunningServer } from '../support/server.ts';

// Server cards are static files of the build, and the MCP Inspector is a client of its own: both
// need the real server. The transport's rules are tested in process in tests/api/mcp-transport.test.ts.
const run = promisify(execFile);
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ MCP_ALLOWED_ORIGINS: '' });
});
afterAll(() => server.stop());

/** The rules of the current experimental server-card schema (its $schema URL below), plus the members older readers use. */
const serverCardSchema = z
  .object({
    $schema: z.literal('https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json'),
    name: z.string().regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    description: z.string().min(1).max(100),
    title: z.string().min(1),
    websiteUrl: z.string().url(),
    remotes: z
      .array(
        z.object({
          type: z.literal('streamable-http'),
          url: z.string().url(),
          supportedProtocolVersions: z.array(z.string()).min(1),
        }),
      )
      .length(1),
    serverInfo: z.object({ name: z.string(), version: z.string() }).passthrough(),
    transport: z.object({ type: z.literal('streamable-http'), url: z.string().url() }),
    capabilities: z.record(z.unknown()),
    tools: z.array(z.object({ name: z.string() }).passthrough()).min(1),
    resources: z.array(z.unknown()),
    resourceTemplates: z.array(z.unknown()),
    prompts: z.array(z.unknown()),
  })
  .passthrough();

describe('server cards', () => {
  it.each([
    ['/mcp', '/.well-known/mcp/server-card.json', '/mcp/server-card'],
    ['/mcp/docs', '/.well-known/mcp/docs/server-card.json', '/mcp/docs/server-card'],
  ])('%s: the card equals what the live server lists', async (endpoint, wellKnown, beside) => {
    const [first, second] = await Promise.all([
      fetch(`${server.baseUrl}${wellKnown}`),
      fetch(`${server.baseUrl}${beside}`),
    ]);
    for (const response of [first, second]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('etag')).toMatch(/^"/);
      expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    }
    const card = serverCardSchema.parse(await first.json());
    expect(await second.json()).toEqual(card);
    const revalidated = await fetch(`${server.baseUrl}${wellKnown}`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(revalidated.status).toBe(304);

    const client = await connectMcp(`${server.baseUrl}${endpoint}`);
    try {
      expect(card.remotes[0]!.url.endsWith(endpoint)).toBe(true);
      expect(card.serverInfo).toEqual(client.getServerVersion());
      expect(card.capabilities).toEqual(client.getServerCapabilities());
      expect(card.instructions).toBe(client.getInstructions());
      expect(card.tools).toEqual((await client.listTools()).tools);
      expect(card.resources).toEqual((await client.listResources()).resources);
      expect(card.resourceTemplates).toEqual((await client.listResourceTemplates()).resourceTemplates);
      expect(card.prompts).toEqual(client.getServerCapabilities()?.prompts ? (await client.listPrompts()).prompts : []);
    } finally {
      await client.close();
    }
  });
});

describe('MCP Inspector CLI', () => {
  const inspector = (...args: string[]) =>
    run(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js'),
        '--cli',
        ...args,
      ],
      {
        env: { ...process.env, MCP_CATALOG_PATH: path.join(freshDataDir(), 'mcp.json') },
        timeout: 90_000,
      },
    );

  it('lists the tools of both servers and calls one', async () => {
    const product = JSON.parse(
      (await inspector(`${server.baseUrl}/mcp`, '--transport', 'http', '--method', 'tools/list')).stdout,
    ) as { tools: { name: string }[] };
    expect(product.tools.map((tool) => tool.name)).toContain('get_project');
    const docs = JSON.parse(
      (await inspector(`${server.baseUrl}/mcp/docs`, '--transport', 'http', '--method', 'tools/list')).stdout,
    ) as { tools: { name: string }[] };
    expect(docs.tools.map((tool) => tool.name)).toEqual(['list_docs', 'get_doc', 'search_docs']);
    const called = JSON.parse(
      (
        await inspector(
          `${server.baseUrl}/mcp/docs`,
          '--transport',
          'http',
          '--method',
          'tools/call',
          '--tool-name',
          'get_doc',
          '--tool-arg',
          'path=/auth',
        )
      ).stdout,
    ) as { structuredContent: { path: string; markdown: string } };
    expect(called.structuredContent.path).toBe('/auth');
    expect(called.structuredContent.markdown).toMatch(/^# /);
  }, 300_000);
});
