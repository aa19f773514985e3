import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { ConformanceTester } from 'lighthouse/third-party/ard/ard.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AI_CATALOG_PATH, ARD_PATH } from '../../functions/site/discovery-documents.ts';
import { cardBesideServer, MCP_SERVERS, SERVER_CARD_PATHS } from '../../functions/mcp/server-identity.ts';
import { connectMcp } from '../support/mcp.ts';
import { sendModern } from '../support/mcp-eras.ts';
import { freshDataDir, ROOT } from '../support/server.ts';
import { startService, type InProcessService } from '../support/service.ts';
import { toolsNode } from '../support/tool-node.ts';

// Server cards and the AI Catalog are static files of the build, and the MCP Inspector is a client
// of its own: all need the real server. The transport's rules are tested in process in
// tests/api/mcp-transport.test.ts.
const run = promisify(execFile);
let server: InProcessService;

beforeAll(async () => {
  server = await startService({ MCP_ALLOWED_ORIGINS: '', READ_RATE_LIMIT: '100000/60' });
});
afterAll(() => server.stop());

/** The server runs with the SITE_URL it was built with, so absolute links resolve to it. */
const SITE = 'http://localhost:4321';

/** A site URL fetched from the test server. */
function local(url: string): string {
  return url.startsWith(SITE) ? `${server.baseUrl}${url.slice(SITE.length)}` : url;
}

/** A vendored draft schema (tests/fixtures/discovery-schemas/README.md names each source). */
function draftSchema(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(ROOT, 'tests/fixtures/discovery-schemas', file), 'utf8')) as Record<
    string,
    unknown
  >;
}

/** JSON Schema 2020-12 with formats, as the drafts' own validators run it (the SDK's Ajv2020). */
const validators = new AjvJsonSchemaValidator();
const cardSchema = draftSchema('server-card.schema.json');
const validateCard = validators.getValidator({ ...cardSchema, $ref: '#/$defs/ServerCard' });
const validateCatalog = validators.getValidator(draftSchema('ai-catalog.schema.json'));

/** The members the server-card schema defines (schema.ts `ServerCard`); its objects stay open, so this test closes them. */
const CARD_MEMBERS = Object.keys(
  (cardSchema.$defs as Record<string, { properties: Record<string, unknown> }>).ServerCard!.properties,
);

/** What the tests read of a card once the draft's schema has accepted it. */
const servedCard = z.object({
  name: z.string(),
  version: z.string(),
  title: z.string(),
  remotes: z
    .array(z.object({ type: z.string(), url: z.string(), supportedProtocolVersions: z.array(z.string()) }))
    .length(1),
});

/**
 * What the well-known copies add to the draft's card for readers of the first drafts and today's
 * scanners (functions/mcp/server-card.ts wellKnownCard); the copy beside the server has none.
 */
const WELL_KNOWN_MEMBERS = ['serverInfo', 'transport', 'capabilities'];

/** Whether a card path is a well-known copy rather than the one beside its server. */
function isWellKnown(path: string): boolean {
  return path.startsWith('/.well-known/');
}

function parseCard(body: string, where: string) {
  const card = JSON.parse(body) as Record<string, unknown>;
  const result = validateCard(card);
  expect(result.errorMessage, where).toBeUndefined();
  const allowed = isWellKnown(where) ? [...CARD_MEMBERS, ...WELL_KNOWN_MEMBERS] : CARD_MEMBERS;
  expect(
    Object.keys(card).filter((member) => !allowed.includes(member)),
    where,
  ).toEqual([]);
  return servedCard.parse(card);
}

/** The width and height a PNG declares in its IHDR chunk (PNG specification, section 11.2.2). */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/**
 * The server-card extension (modelcontextprotocol/experimental-ext-server-card, docs/discovery.md),
 * "Security Considerations" > "CORS Requirements", word for word.
 */
const CARD_CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
};

function expectCardHeaders(response: Response, path: string): void {
  // docs/discovery.md, "Hosted Server Card Location": the card's own media type wherever it is hosted.
  expect(response.headers.get('content-type'), path).toBe('application/mcp-server-card+json');
  for (const [name, value] of Object.entries(CARD_CORS))
    expect(response.headers.get(name), `${path} ${name}`).toBe(value);
}

/** A media type without its parameters, lowercased (RFC 9110 section 8.3.1). */
function essence(mediaType: string | null): string {
  return (mediaType ?? '').split(';')[0]!.trim().toLowerCase();
}

const SERVERS = [
  { id: 'product', endpoint: '/mcp' },
  { id: 'docs', endpoint: '/mcp/docs' },
] as const;

/** The 2025-era versions a server accepts: each initialize is answered in the version asked for. */
async function acceptedByInitialize(url: string, versions: readonly string[]): Promise<string[]> {
  const accepted: string[] = [];
  for (const version of versions) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'card-test', version: '1.0.0' } },
      }),
    });
    const body = (await response.json()) as { result?: { protocolVersion: string } };
    if (body.result?.protocolVersion === version) accepted.push(version);
  }
  return accepted;
}

describe('server cards', () => {
  it('answers GET, HEAD, If-None-Match and a CORS preflight at every card path, as the server-card draft asks', async () => {
    expect(SERVER_CARD_PATHS).toEqual(
      expect.arrayContaining([
        '/mcp/server-card',
        '/mcp/docs/server-card',
        '/.well-known/mcp/server-card',
        '/.well-known/mcp/server-card.json',
        '/.well-known/mcp/docs/server-card',
      ]),
    );
    for (const path of SERVER_CARD_PATHS) {
      const get = await fetch(`${server.baseUrl}${path}`, { headers: { accept: 'application/mcp-server-card+json' } });
      expect(get.status, path).toBe(200);
      expectCardHeaders(get, path);
      // docs/discovery.md, "Caching": Cache-Control and an ETag, and 304 for a matching If-None-Match.
      expect(get.headers.get('cache-control'), path).toMatch(/max-age=\d+/);
      parseCard(await get.text(), path);
      const etag = get.headers.get('etag');
      expect(etag, path).toMatch(/^"/);
      const revalidated = await fetch(`${server.baseUrl}${path}`, { headers: { 'if-none-match': etag! } });
      expect(revalidated.status, path).toBe(304);
      expect(revalidated.headers.get('etag'), path).toBe(etag);
      expect(revalidated.headers.get('access-control-expose-headers'), path).toBe('ETag');

      const head = await fetch(`${server.baseUrl}${path}`, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expectCardHeaders(head, path);
      expect(await head.text(), path).toBe('');

      // A browser asks first when its GET carries a Content-Type or an If-None-Match (neither is
      // CORS-safelisted); Allow-Methods and Allow-Headers only count in this answer, which must be
      // a 2xx (Fetch, CORS-preflight fetch).
      const preflight = await fetch(`${server.baseUrl}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://client.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'content-type, if-none-match',
        },
      });
      expect(preflight.status, path).toBe(204);
      for (const [name, value] of Object.entries(CARD_CORS))
        expect(preflight.headers.get(name), `${path} ${name}`).toBe(value);
      const post = await fetch(`${server.baseUrl}${path}`, { method: 'POST' });
      expect(post.status, path).toBe(405);
      expect(post.headers.get('allow'), path).toBe('GET, HEAD, OPTIONS');
    }
  });

  it.each(SERVERS)(
    '$endpoint: the card beside the server is exactly the draft, the well-known copies add serverInfo, transport and capabilities',
    async ({ id, endpoint }) => {
      const paths = SERVER_CARD_PATHS.filter((path) => (id === 'docs') === path.includes('/docs/'));
      expect(paths).toHaveLength(3);
      const [besideServer, ...wellKnown] = [cardBesideServer(id), ...paths.filter(isWellKnown)];
      expect(wellKnown).toHaveLength(2);
      const body = await (await fetch(`${server.baseUrl}${besideServer}`)).text();
      const wellKnownBodies = await Promise.all(
        wellKnown.map(async (path) => (await fetch(`${server.baseUrl}${path}`)).text()),
      );
      expect(new Set(wellKnownBodies).size).toBe(1);
      const card = parseCard(body, besideServer!);
      // schema.ts: the card lists no primitives and no capabilities any more.
      for (const gone of ['tools', 'resources', 'resourceTemplates', 'prompts', 'capabilities', 'serverInfo'])
        expect(JSON.parse(body), gone).not.toHaveProperty(gone);
      const copy = JSON.parse(wellKnownBodies[0]!) as Record<string, unknown>;
      parseCard(wellKnownBodies[0]!, wellKnown[0]!);
      const { serverInfo, transport, capabilities, ...draftCard } = copy;
      expect(draftCard).toEqual(JSON.parse(body));
      expect(transport).toEqual({ type: 'streamable-http', url: `${SITE}${endpoint}` });

      // The transport endpoint: one Streamable HTTP remote at the server's URL.
      const [remote] = card.remotes;
      expect(remote!.type).toBe('streamable-http');
      expect(remote!.url).toBe(`${SITE}${endpoint}`);

      // docs/discovery.md, "Consistency with Runtime Behavior": the versions are those server/discover
      // names (2026-07-28), then the 2025-era ones initialize accepts, and nothing else.
      const discover = await sendModern(`${server.baseUrl}${endpoint}`, 1, 'server/discover', {}, {});
      const modern = discover.body.result!.supportedVersions as string[];
      expect(modern).toContain('2026-07-28');
      const versions = remote!.supportedProtocolVersions;
      expect(versions.slice(0, modern.length)).toEqual(modern);
      const legacy = versions.slice(modern.length);
      expect(legacy).toEqual(expect.arrayContaining(['2025-11-25', '2025-06-18']));
      expect(await acceptedByInitialize(`${server.baseUrl}${endpoint}`, legacy)).toEqual(legacy);
      // 2026-07-28 names the server in every result's _meta.
      const meta = discover.body.result!._meta as Record<string, unknown>;
      expect(meta['io.modelcontextprotocol/serverInfo']).toEqual(
        expect.objectContaining({ name: MCP_SERVERS[id].name, version: card.version, title: card.title }),
      );

      const client = await connectMcp(`${server.baseUrl}${endpoint}`);
      try {
        expect(client.getServerVersion()).toEqual(
          expect.objectContaining({ version: card.version, title: card.title }),
        );
        // The well-known copy's serverInfo and capabilities are what initialize answers, icons included.
        const { name, title, version, icons } = client.getServerVersion()!;
        expect(serverInfo).toEqual({ name, title, version, icons });
        expect(capabilities).toEqual(client.getServerCapabilities());
        expect(icons).toEqual((JSON.parse(body) as { icons: unknown }).icons);
        // listChanged true would announce lists that change at run time (and notifications a
        // stateless server never sends); these lists change only with a build.
        for (const kind of ['tools', 'resources', 'prompts'] as const)
          expect(client.getServerCapabilities()?.[kind]?.listChanged, kind).toBeUndefined();
        // The card is also a resource of the server, with the same type and bytes as over HTTP.
        const { resources } = await client.listResources();
        expect(resources).toContainEqual(
          expect.objectContaining({ uri: 'mcp://server-card.json', mimeType: 'application/mcp-server-card+json' }),
        );
        const read = await client.readResource({ uri: 'mcp://server-card.json' });
        expect(read.contents).toHaveLength(1);
        const [content] = read.contents as { uri: string; mimeType?: string; text?: string }[];
        expect(content!.uri).toBe('mcp://server-card.json');
        expect(content!.mimeType).toBe('application/mcp-server-card+json');
        expect(content!.text).toBe(body);
      } finally {
        await client.close();
      }
    },
  );
});

/** What the tests read of the AI Catalog once ARD's schema has accepted it. */
const catalogEntry = z.object({
  identifier: z.string(),
  displayName: z.string(),
  type: z.string(),
  url: z.string().optional(),
  data: z.unknown().optional(),
});
const nestedCatalog = z.object({ specVersion: z.literal('1.0'), entries: z.array(catalogEntry) });
const servedCatalog = z.object({
  specVersion: z.string(),
  host: z.object({ displayName: z.string(), identifier: z.string(), logoUrl: z.string() }),
  entries: z.array(catalogEntry),
});

/** The OpenAPI types the catalog names, and the structured-syntax base each is served as (RFC 6839 section 3.1, RFC 9512 section 3). */
const SERVED_AS: Record<string, string> = {
  'application/openapi+json': 'application/json',
  'application/openapi+yaml': 'application/yaml',
};

async function fetchCatalog() {
  const response = await fetch(`${server.baseUrl}${AI_CATALOG_PATH}`);
  expect(response.status).toBe(200);
  const body = await response.text();
  return { response, body, catalog: servedCatalog.parse(JSON.parse(body)) };
}

describe('AI Catalog', () => {
  it('is application/ai-catalog+json for any origin, revalidates by ETag, and passes ARD schema and Lighthouse ARD check', async () => {
    const { response, body } = await fetchCatalog();
    // Agent-Card/ai-catalog, specification/ai-catalog.md, "Media Type" and "Location Independence".
    expect(response.headers.get('content-type')).toBe('application/ai-catalog+json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const revalidated = await fetch(`${server.baseUrl}${AI_CATALOG_PATH}`, {
      headers: { 'if-none-match': response.headers.get('etag')! },
    });
    expect(revalidated.status).toBe(304);

    const parsed = JSON.parse(body) as unknown;
    expect(validateCatalog(parsed).errorMessage).toBeUndefined();
    // Lighthouse 13.5's own ARD conformance check (the ard-schema audit): no error, no warning.
    const tester = new ConformanceTester();
    expect(tester.validate_manifest(body, 'ai-catalog.json')).toBe(true);
    expect(tester.errors).toEqual([]);
    expect(tester.warnings).toEqual([]);
  });

  it('lists both MCP servers, the agent skill and the OpenAPI description, each at a URL that answers with its type', async () => {
    const { catalog } = await fetchCatalog();
    expect(catalog.specVersion).toBe('1.0');
    expect(catalog.host.identifier).toBe('localhost');
    const identifiers = catalog.entries.map((entry) => entry.identifier);
    expect(new Set(identifiers).size).toBe(identifiers.length);
    // specification/ai-catalog.md, "Catalog Entry" > `identifier`: urn:air:{publisher}:{namespace}:{name}.
    expect(identifiers).toEqual([
      'urn:air:localhost:mcp:portfolio',
      'urn:air:localhost:mcp:portfolio-docs',
      'urn:air:localhost:skill:portfolio-api',
      'urn:air:localhost:api:portfolio',
    ]);
    // The API: a nested catalog ("Nested Catalog Entries") of its OpenAPI description, JSON and YAML.
    const [product, docs, skill, api] = catalog.entries;
    expect(api!.type).toBe('application/ai-catalog+json');
    expect(api!.url).toBeUndefined();
    const descriptions = nestedCatalog.parse(api!.data).entries;
    expect(validateCatalog(api!.data).errorMessage).toBeUndefined();
    expect(
      [product, docs, skill, ...descriptions].map((entry) => [entry!.identifier, entry!.type, entry!.url]),
    ).toEqual([
      ['urn:air:localhost:mcp:portfolio', 'application/mcp-server-card+json', `${SITE}${cardBesideServer('product')}`],
      [
        'urn:air:localhost:mcp:portfolio-docs',
        'application/mcp-server-card+json',
        `${SITE}${cardBesideServer('docs')}`,
      ],
      [
        'urn:air:localhost:skill:portfolio-api',
        'text/markdown; profile="urn:air:agent-skills"',
        `${SITE}/.well-known/agent-skills/portfolio-api/SKILL.md`,
      ],
      ['urn:air:localhost:api:portfolio:json', 'application/openapi+json', `${SITE}/openapi.json`],
      ['urn:air:localhost:api:portfolio:yaml', 'application/openapi+yaml', `${SITE}/openapi.yaml`],
    ]);
    for (const entry of [product!, docs!, skill!, ...descriptions]) {
      const served = await fetch(local(entry.url!));
      expect(served.status, entry.url).toBe(200);
      // "Catalog Entry" > `url`: served with the declared type. The OpenAPI documents keep the
      // generic types every other link to them names, which their structured suffix denotes.
      expect(essence(served.headers.get('content-type')), entry.url).toBe(SERVED_AS[entry.type] ?? essence(entry.type));
      if (entry.type === 'application/mcp-server-card+json')
        expect(parseCard(await served.text(), entry.url!).title).toBe(entry.displayName);
    }
  });

  it('is linked with rel="ai-catalog" from the home page and API answers, and from llms.txt and the api-catalog', async () => {
    for (const [path, method] of [
      ['/', 'GET'],
      ['/api/v1/projects', 'GET'],
      ['/.well-known/api-catalog', 'HEAD'],
    ] as const) {
      const link = (await fetch(`${server.baseUrl}${path}`, { method })).headers.get('link');
      // specification/ai-catalog.md, "Link Relation Discovery".
      expect(link, path).toContain(`<${AI_CATALOG_PATH}>; rel="ai-catalog"; type="application/ai-catalog+json"`);
    }
    const llms = await (await fetch(`${server.baseUrl}/llms.txt`)).text();
    expect(llms).toContain(`(${SITE}${AI_CATALOG_PATH})`);
    for (const { id } of SERVERS) expect(llms).toContain(`(${SITE}${cardBesideServer(id)})`);
    const apiCatalog = (await (await fetch(`${server.baseUrl}/.well-known/api-catalog`)).json()) as {
      linkset: {
        anchor: string;
        'service-desc'?: { href: string; type: string }[];
        'service-meta'?: { href: string }[];
      }[];
    };
    for (const { id, endpoint } of SERVERS) {
      const entry = apiCatalog.linkset.find((candidate) => candidate.anchor === `${SITE}${endpoint}`);
      expect(entry?.['service-meta']?.map((link) => link.href)).toContain(`${SITE}${AI_CATALOG_PATH}`);
      expect(entry?.['service-desc']).toEqual([
        { href: `${SITE}${cardBesideServer(id)}`, type: 'application/mcp-server-card+json' },
      ]);
    }
    // The MCP Catalog left the server-card draft (docs/mcp-eras.md, "Discovery documents").
    expect((await fetch(`${server.baseUrl}/.well-known/mcp/catalog.json`)).status).toBe(404);
  });
});

describe('icons', () => {
  it('every icon the cards and serverInfo name is a PNG of its declared size on the site, and the catalog logo is the largest', async () => {
    const card = JSON.parse(await (await fetch(`${server.baseUrl}${cardBesideServer('product')}`)).text()) as {
      icons: { src: string; mimeType: string; sizes: string[] }[];
    };
    expect(card.icons.map((icon) => icon.sizes)).toEqual([['48x48'], ['96x96'], ['192x192'], ['512x512']]);
    for (const icon of card.icons) {
      expect(icon.src.startsWith(`${SITE}/icons/`), icon.src).toBe(true);
      const served = await fetch(local(icon.src));
      expect(served.status, icon.src).toBe(200);
      expect(served.headers.get('content-type'), icon.src).toBe(icon.mimeType);
      expect([pngSize(Buffer.from(await served.arrayBuffer()))], icon.src).toEqual(icon.sizes);
    }
    const { catalog } = await fetchCatalog();
    expect(catalog.host.logoUrl).toBe(card.icons.at(-1)!.src);
  });
});

describe('ARD (/.well-known/ard.json)', () => {
  it('serves the AI Catalog under the ARD name, same bytes and type, to any origin, with no ARD warning', async () => {
    const { response, body } = await fetchCatalog();
    const ard = await fetch(`${server.baseUrl}${ARD_PATH}`, { headers: { origin: 'https://agent.example' } });
    expect(ard.status).toBe(200);
    expect(ard.headers.get('content-type')).toBe(response.headers.get('content-type'));
    expect(ard.headers.get('access-control-allow-origin')).toBe('*');
    const ardBody = await ard.text();
    expect(ardBody).toBe(body);
    const tester = new ConformanceTester();
    expect(tester.validate_manifest(ardBody, 'ard.json')).toBe(true);
    expect({ errors: tester.errors, warnings: tester.warnings }).toEqual({ errors: [], warnings: [] });
  });

  it('is linked with rel="ard" before rel="ai-catalog", in the Link header and in the home page head', async () => {
    for (const [path, method] of [
      ['/', 'GET'],
      ['/api/v1/projects', 'GET'],
      ['/.well-known/api-catalog', 'HEAD'],
    ] as const) {
      const link = (await fetch(`${server.baseUrl}${path}`, { method })).headers.get('link') ?? '';
      expect(link, path).toContain(`<${ARD_PATH}>; rel="ard"; type="application/ai-catalog+json"`);
      expect(link.indexOf('rel="ard"'), path).toBeLessThan(link.indexOf('rel="ai-catalog"'));
    }
    // A static host that sends none of these headers still shows the links in the page itself.
    const home = await (await fetch(`${server.baseUrl}/`)).text();
    const head = home.slice(0, home.indexOf('</head>'));
    // Relative, as in the header, so a copy served from another origin points at its own catalog.
    expect(head).toContain(`<link rel="ard" href="${ARD_PATH}" type="application/ai-catalog+json">`);
    expect(head).toContain(`<link rel="ai-catalog" href="${AI_CATALOG_PATH}" type="application/ai-catalog+json">`);
    // Only the home page carries them.
    expect(await (await fetch(`${server.baseUrl}/search`)).text()).not.toContain('rel="ard"');
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
