import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVER_CARD_PATHS } from '../../functions/mcp/server-identity.ts';
import { connectMcp } from '../support/mcp.ts';
import { freshDataDir, ROOT } from '../support/server.ts';
import { startService, type InProcessService } from '../support/service.ts';
import { toolsNode } from '../support/tool-node.ts';

// Server cards are static files of the build, and the MCP Inspector is a client of its own: both
// need the real server. The transport's rules are tested in process in tests/api/mcp-transport.test.ts.
const run = promisify(execFile);
let server: InProcessService;

beforeAll(async () => {
  server = await startService({ MCP_ALLOWED_ORIGINS: '' });
});
afterAll(() => server.stop());

/** The server runs with the SITE_URL it was built with, so absolute links resolve to it. */
const SITE = 'http://localhost:4321';

/** A site URL fetched from the test server. */
function local(url: string): string {
  return url.startsWith(SITE) ? `${server.baseUrl}${url.slice(SITE.length)}` : url;
}

/**
 * SEP-2127 (draft), "MCP Server Card Schema" and "Field Descriptions": $schema, name (reverse-DNS,
 * exactly one "/"), version (semver) and capabilities are required; description, title,
 * websiteUrl, remotes (each with supportedProtocolVersions) and the primitive lists are
 * optional, and present here. serverInfo, transport and resourceTemplates serve older readers.
 */
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
    capabilities: z.record(z.string(), z.unknown()),
    tools: z.array(z.object({ name: z.string() }).passthrough()).min(1),
    resources: z.array(z.object({ uri: z.string() }).passthrough()),
    resourceTemplates: z.array(z.unknown()),
    prompts: z.array(z.unknown()),
  })
  .passthrough();

/** The published revisions of the MCP specification (each has its own specification tree). */
const PUBLISHED_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

/** SEP-2127 (draft), "Endpoints" > ".well-known URI" > "CORS Requirements", word for word. */
const REQUIRED_CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type',
};

function expectDiscoveryHeaders(response: Response, path: string): void {
  // SEP-2127 ".well-known URI": "MUST return Content-Type: application/json".
  expect(response.headers.get('content-type'), path).toBe('application/json');
  for (const [name, value] of Object.entries(REQUIRED_CORS)) expect(response.headers.get(name), path).toBe(value);
}

const SERVERS = [
  { id: 'product', endpoint: '/mcp' },
  { id: 'docs', endpoint: '/mcp/docs' },
] as const;

describe('server cards', () => {
  it('answers GET, HEAD and a CORS preflight at every card path, with the headers SEP-2127 requires', async () => {
    expect(SERVER_CARD_PATHS).toEqual(
      expect.arrayContaining([
        '/.well-known/mcp/server-card',
        '/.well-known/mcp/server-card.json',
        '/.well-known/mcp/docs/server-card',
        '/mcp/server-card',
        '/mcp/docs/server-card',
      ]),
    );
    for (const path of SERVER_CARD_PATHS) {
      const get = await fetch(`${server.baseUrl}${path}`);
      expect(get.status, path).toBe(200);
      expectDiscoveryHeaders(get, path);
      // SEP-2127 "Caching": cache headers are a MAY; ours revalidate by ETag.
      expect(get.headers.get('cache-control'), path).toMatch(/max-age=\d+/);
      serverCardSchema.parse(await get.json());
      const revalidated = await fetch(`${server.baseUrl}${path}`, {
        headers: { 'if-none-match': get.headers.get('etag')! },
      });
      expect(revalidated.status, path).toBe(304);

      const head = await fetch(`${server.baseUrl}${path}`, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expectDiscoveryHeaders(head, path);
      expect(await head.text(), path).toBe('');

      // A browser asks first when its GET carries a Content-Type (not a CORS-safelisted value);
      // Allow-Methods and Allow-Headers only count in this answer, which must be a 2xx (Fetch, CORS-preflight fetch).
      const preflight = await fetch(`${server.baseUrl}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://client.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status, path).toBe(204);
      for (const [name, value] of Object.entries(REQUIRED_CORS))
        expect(preflight.headers.get(name), `${path} ${name}`).toBe(value);
      const post = await fetch(`${server.baseUrl}${path}`, { method: 'POST' });
      expect(post.status, path).toBe(405);
      expect(post.headers.get('allow'), path).toBe('GET, HEAD, OPTIONS');
    }
  });

  it.each(SERVERS)(
    '$endpoint: every path serves the same card, equal to what the live server says',
    async ({ id, endpoint }) => {
      const paths = SERVER_CARD_PATHS.filter((path) => (id === 'docs') === path.includes('/docs/'));
      expect(paths).toHaveLength(3);
      const bodies = await Promise.all(paths.map(async (path) => (await fetch(`${server.baseUrl}${path}`)).text()));
      expect(new Set(bodies).size).toBe(1);
      const card = serverCardSchema.parse(JSON.parse(bodies[0]!));

      // Published revisions only (SEP-2127 "Field Descriptions", remotes.supportedProtocolVersions).
      const versions = card.remotes[0]!.supportedProtocolVersions;
      expect(
        versions.every((version) => PUBLISHED_PROTOCOL_VERSIONS.includes(version)),
        versions.join(),
      ).toBe(true);

      const client = await connectMcp(`${server.baseUrl}${endpoint}`);
      try {
        expect(card.remotes[0]!.url).toBe(`${SITE}${endpoint}`);
        expect(card.serverInfo).toEqual(client.getServerVersion());
        // SEP-2127 "Field Descriptions": capabilities follow ServerCapabilities, as initialize answers them.
        expect(card.capabilities).toEqual(client.getServerCapabilities());
        // "Primitives" > "Dynamic Primitives": listChanged true would announce lists that change at
        // run time (and notifications a stateless server never sends); these lists are static.
        for (const kind of ['tools', 'resources', 'prompts'])
          expect((card.capabilities[kind] as { listChanged?: boolean } | undefined)?.listChanged, kind).toBeUndefined();
        expect(card.instructions).toBe(client.getInstructions());
        expect(card.tools).toEqual((await client.listTools()).tools);
        expect(card.resources).toEqual((await client.listResources()).resources);
        expect(card.resourceTemplates).toEqual((await client.listResourceTemplates()).resourceTemplates);
        expect(card.prompts).toEqual(
          client.getServerCapabilities()?.prompts ? (await client.listPrompts()).prompts : [],
        );

        // SEP-2127 "Endpoints" > "MCP Resource": URI mcp://server-card.json, application/json, the card itself.
        expect(card.resources).toContainEqual(
          expect.objectContaining({ uri: 'mcp://server-card.json', mimeType: 'application/json' }),
        );
        const read = await client.readResource({ uri: 'mcp://server-card.json' });
        expect(read.contents).toHaveLength(1);
        const [content] = read.contents as { uri: string; mimeType?: string; text?: string }[];
        expect(content!.uri).toBe('mcp://server-card.json');
        expect(content!.mimeType).toBe('application/json');
        expect(content!.text).toBe(bodies[0]);
      } finally {
        await client.close();
      }
    },
  );
});

describe('MCP Catalog', () => {
  it('lists both servers with their names, titles, endpoints and cards, all of which answer', async () => {
    const response = await fetch(`${server.baseUrl}/.well-known/mcp/catalog.json`);
    expect(response.status).toBe(200);
    // The server-card extension (modelcontextprotocol/experimental-ext-server-card, docs/discovery.md), "Well-Known URI" and "CORS Requirements".
    expectDiscoveryHeaders(response, '/.well-known/mcp/catalog.json');
    // The server-card extension (modelcontextprotocol/experimental-ext-server-card, docs/discovery.md), "Catalog Format": specVersion and entries, each with identifier, displayName, type and url.
    const catalog = z
      .object({
        specVersion: z.string(),
        entries: z.array(
          z.object({
            identifier: z.string().regex(/^urn:air:[^:]+:[^:]+$/),
            displayName: z.string().min(1),
            type: z.literal('application/mcp-server-card+json'),
            url: z.string().url(),
            name: z.string(),
            endpoint: z.string().url(),
          }),
        ),
      })
      .parse(await response.json());
    expect(catalog.entries.map((entry) => entry.endpoint)).toEqual(SERVERS.map(({ endpoint }) => `${SITE}${endpoint}`));
    for (const entry of catalog.entries) {
      const cardResponse = await fetch(local(entry.url));
      expect(cardResponse.status, entry.url).toBe(200);
      const card = serverCardSchema.parse(await cardResponse.json());
      // The identifier ends with the card name's part after "/" (modelcontextprotocol/experimental-ext-server-card, docs/discovery.md: "Catalog Entry").
      expect(entry.identifier.endsWith(`:${card.name.split('/')[1]}`)).toBe(true);
      expect(entry.name).toBe(card.name);
      expect(entry.displayName).toBe(card.title);
      expect(entry.endpoint).toBe(card.remotes[0]!.url);
      const client = await connectMcp(local(entry.endpoint));
      try {
        expect(client.getServerVersion()?.title).toBe(entry.displayName);
      } finally {
        await client.close();
      }
    }
  });

  it('is linked from llms.txt and from the api-catalog', async () => {
    const llms = await (await fetch(`${server.baseUrl}/llms.txt`)).text();
    expect(llms).toContain(`(${SITE}/.well-known/mcp/catalog.json)`);
    const apiCatalog = (await (await fetch(`${server.baseUrl}/.well-known/api-catalog`)).json()) as {
      linkset: { anchor: string; 'service-meta'?: { href: string }[] }[];
    };
    for (const { endpoint } of SERVERS) {
      const entry = apiCatalog.linkset.find((candidate) => candidate.anchor === `${SITE}${endpoint}`);
      expect(entry?.['service-meta']?.map((link) => link.href)).toContain(`${SITE}/.well-known/mcp/catalog.json`);
    }
  });
});

describe('MCP Inspector CLI', () => {
  const inspector = (...args: string[]) =>
    run(
      toolsNode(),
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
