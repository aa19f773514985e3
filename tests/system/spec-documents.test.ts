import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { REGISTRY_AUTH_PATH } from '../../functions/mcp/registry-auth.ts';
import { REGISTRY_DOCUMENT_PATHS } from '../../functions/mcp/registry-entry.ts';
import { DISCOVERY_DOCUMENTS } from '../../functions/site/discovery-documents.ts';
import { OAUTH_SCOPES } from '../../functions/keys/schema.ts';
import { markdownTwinPath } from '../../functions/site/markdown-twin.ts';
import { VALID } from '../support/contact.ts';
import { groupFor, isAllowed, parseRobots } from '../support/robots.ts';
import { startService, type InProcessService } from '../support/service.ts';
import { sitemapPaths } from '../support/sitemap.ts';

/**
 * Each discovery document checked against its spec, on a server with the default configuration
 * (the one the build baked into the documents), so the quotas it enforces are the documented ones.
 */
const SITE = 'http://localhost:4321';
const PRM_PREFIX = '/.well-known/oauth-protected-resource';
let server: InProcessService;

beforeAll(async () => {
  server = await startService();
});
afterAll(() => server.stop());

/** A site URL (absolute, or a path) fetched from the test server. */
function get(url: string, init: RequestInit = {}): Promise<Response> {
  const path = url.startsWith(SITE) ? url.slice(SITE.length) : url;
  return fetch(`${server.baseUrl}${path.replace(/#.*$/, '')}`, init);
}

async function json<T = Record<string, unknown>>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await get(url, init);
  expect(response.status, url).toBe(200);
  return (await response.json()) as T;
}

/** The media type without its parameters (RFC 9110 section 8.3.1), lower case. */
function mediaType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

interface CatalogLink {
  href: string;
  type?: string;
}
type Linkset = { linkset: ({ anchor: string } & Record<string, CatalogLink[] | string>)[] };

function catalogLinks(catalog: Linkset): { anchor: string; relation: string; link: CatalogLink }[] {
  return catalog.linkset.flatMap(({ anchor, ...relations }) =>
    Object.entries(relations).flatMap(([relation, links]) =>
      (links as CatalogLink[]).map((link) => ({ anchor, relation, link })),
    ),
  );
}

describe('OAuth 2.0 Protected Resource Metadata (RFC 9728)', () => {
  /** Section 3.1: the metadata URL inserts the well-known prefix between the host and the resource's path. */
  const metadataUrlOf = (resource: string) => {
    const url = new URL(resource);
    return `${url.origin}${PRM_PREFIX}${url.pathname === '/' ? '' : url.pathname}`;
  };

  it('publishes each document with resource = its URL minus the well-known prefix (section 3.3), every link resolving', async () => {
    // Every place that points at protected resource metadata: the catalog, the API index and the
    // authorization server's protected_resources (RFC 9728 section 4), plus the two documents themselves.
    const catalog = await json<Linkset>('/.well-known/api-catalog');
    const fromCatalog = catalogLinks(catalog)
      .map(({ link }) => link.href)
      .filter((href) => href.startsWith(`${SITE}${PRM_PREFIX}`));
    const index = await json<{ links: { resourceMetadata: string } }>('/api/v1');
    const authorizationServer = await json<{ issuer: string; protected_resources: string[] }>(
      '/.well-known/oauth-authorization-server',
    );
    const urls = new Set([
      `${SITE}${PRM_PREFIX}`,
      `${SITE}${PRM_PREFIX}/api/v1`,
      ...fromCatalog,
      index.links.resourceMetadata,
      ...authorizationServer.protected_resources.map(metadataUrlOf),
    ]);
    expect(fromCatalog.length).toBeGreaterThan(0);
    expect(authorizationServer.protected_resources).toEqual([SITE, `${SITE}/api/v1`]);

    for (const url of urls) {
      const response = await get(url);
      expect(response.status, url).toBe(200);
      expect(mediaType(response), url).toBe('application/json');
      const metadata = (await response.json()) as Record<string, unknown>;
      const { origin, pathname } = new URL(url);
      expect(pathname.startsWith(PRM_PREFIX), url).toBe(true);
      expect(metadata.resource, url).toBe(`${origin}${pathname.slice(PRM_PREFIX.length)}`);
      // Section 2: members with no value are omitted rather than sent empty.
      for (const [name, value] of Object.entries(metadata))
        if (Array.isArray(value)) expect(value.length, `${url} ${name}`).toBeGreaterThan(0);
      // Each authorization server publishes RFC 8414 metadata whose issuer is that identifier (RFC 8414 section 3.3).
      for (const issuer of metadata.authorization_servers as string[]) {
        const server = await json<{ issuer: string }>(`${issuer}/.well-known/oauth-authorization-server`);
        expect(server.issuer).toBe(issuer);
      }
      expect((await get(metadata.resource_documentation as string)).status, url).toBe(200);
    }
  });

  it('the catalog points each anchor at the metadata of the resource that covers it', async () => {
    const catalog = await json<Linkset>('/.well-known/api-catalog');
    for (const { anchor, link } of catalogLinks(catalog)) {
      if (!link.href.startsWith(`${SITE}${PRM_PREFIX}`)) continue;
      const { resource } = await json<{ resource: string }>(link.href);
      expect(anchor === resource || anchor.startsWith(`${resource}/`), `${anchor} -> ${resource}`).toBe(true);
    }
  });
});

describe('auth.md and the OAuth metadata it explains', () => {
  it('names auth.md in its heading and says plainly that nothing needs authorization and the metadata is client credentials only', async () => {
    const response = await get('/auth.md');
    expect(response.status).toBe(200);
    expect(mediaType(response)).toBe('text/markdown');
    const markdown = await response.text();
    expect(markdown.split('\n')[0]).toMatch(/^# .*\bauth\.md\b/);
    const prose = markdown.replace(/\s+/g, ' ');
    expect(prose).toContain('Nothing here needs authorization.');
    expect(prose).toContain('Test keys are optional');
    expect(prose).toContain('The OAuth metadata below describes that client credentials grant and nothing else');
    for (const document of [PRM_PREFIX, `${PRM_PREFIX}/api/v1`, '/.well-known/oauth-authorization-server'])
      expect(prose).toContain(document);
  });

  it('publishes the scopes the token endpoint grants, and no authorization endpoint', async () => {
    const authorizationServer = await json('/.well-known/oauth-authorization-server');
    expect(authorizationServer).not.toHaveProperty('authorization_endpoint');
    expect(authorizationServer.grant_types_supported).toEqual(['client_credentials']);
    expect(authorizationServer.scopes_supported).toEqual([...OAUTH_SCOPES]);
    for (const document of [PRM_PREFIX, `${PRM_PREFIX}/api/v1`])
      expect((await json(document)).scopes_supported, document).toEqual([...OAUTH_SCOPES]);

    // Every published scope is one the token endpoint grants.
    const created = await get('/api/v1/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(created.status).toBe(201);
    const issued = (await created.json()) as { keyId: string; key: string };
    for (const scope of OAUTH_SCOPES) {
      const token = await get('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: issued.keyId,
          client_secret: issued.key,
          scope,
        }),
      });
      expect(token.status, scope).toBe(200);
      expect(((await token.json()) as { scope: string }).scope).toBe(scope);
    }
  });
});

describe('Agent Skills Discovery v0.2.0', () => {
  const INDEX = '/.well-known/agent-skills/index.json';
  const SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
  /** The Agent Skills name rules: 1-64 of a-z and 0-9, hyphens only between them, never two in a row. */
  const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

  it('serves the index as application/json to GET and HEAD ("HTTP requirements")', async () => {
    for (const method of ['GET', 'HEAD']) {
      const response = await get(INDEX, { method });
      expect(response.status, method).toBe(200);
      expect(mediaType(response), method).toBe('application/json');
      expect(response.headers.get('access-control-allow-origin'), method).toBe('*');
    }
  });

  it('follows the index format, and each skill-md digest is the sha256 of the served bytes', async () => {
    const indexUrl = `${SITE}${INDEX}`;
    const index = await json<Record<string, unknown>>(INDEX);
    // "Index format" and "Versioning": exactly $schema and skills, $schema the v0.2.0 URI.
    expect(Object.keys(index).sort()).toEqual(['$schema', 'skills']);
    expect(index.$schema).toBe(SCHEMA);
    const skills = index.skills as Record<string, unknown>[];
    expect(skills.length).toBeGreaterThan(0);
    for (const entry of skills) {
      // "Skill entry fields": name, type, description, url, digest (version is optional; we publish none).
      expect(Object.keys(entry).sort()).toEqual(['description', 'digest', 'name', 'type', 'url']);
      const { name, type, description, url, digest } = entry as Record<
        'name' | 'type' | 'description' | 'url' | 'digest',
        string
      >;
      expect(name.length).toBeLessThanOrEqual(64);
      expect(name).toMatch(NAME);
      expect(type).toBe('skill-md');
      expect(description.trim().length).toBeGreaterThan(0);
      expect(description.length).toBeLessThanOrEqual(1024);
      expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      // "URL resolution": RFC 3986 section 5 against the index URL.
      const artifact = new URL(url, indexUrl);
      expect(artifact.pathname).toBe(`/.well-known/agent-skills/${name}/SKILL.md`);

      const response = await get(artifact.href);
      expect(response.status).toBe(200);
      expect(['text/markdown', 'text/plain']).toContain(mediaType(response));
      const bytes = Buffer.from(await response.arrayBuffer());
      // "Integrity and verification": sha256 of the raw bytes, hex.
      expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(digest);
      expect((await get(artifact.href, { method: 'HEAD' })).status).toBe(200);

      // The Agent Skills format: YAML front matter with name (= the directory) and description.
      const match = /^---\n([\s\S]*?)\n---\n/.exec(bytes.toString('utf8'));
      expect(match, 'front matter').not.toBeNull();
      const frontMatter = parseYaml(match![1]!) as Record<string, unknown>;
      expect(frontMatter.name).toBe(name);
      expect(frontMatter.description).toBe(description);
    }
    expect((await get('/.well-known/agent-skills/no-such-skill/SKILL.md')).status).toBe(404);
  });
});

describe('robots.txt (RFC 9309) and Content Signals', () => {
  const PATHS = [
    '/',
    '/projects/leakhound',
    '/contact',
    '/contact/thanks',
    '/api/v1/projects',
    '/api/v1/contact',
    '/llms.txt',
    '/.well-known/api-catalog',
  ];

  it('gives every named crawler the * group policy and its Content-Signal (sections 2.2.1 and 2.2.2)', async () => {
    const groups = parseRobots(await (await get('/robots.txt')).text());
    const everyone = groupFor(groups, '*');
    const signal = everyone.records.get('content-signal');
    expect(signal).toHaveLength(1);
    expect(signal![0]).toMatch(/(^|,\s*)ai-train=no(\s*,|$)/);
    // The policy itself: the site is open, the contact write endpoint and the thank-you page are not pages.
    expect(PATHS.filter((path) => !isAllowed(everyone, path))).toEqual(['/contact/thanks', '/api/v1/contact']);

    const named = [...new Set(groups.flatMap((group) => group.agents).filter((agent) => agent !== '*'))];
    expect(named).toEqual(expect.arrayContaining(['GPTBot', 'ClaudeBot', 'Google-Extended']));
    // Product tokens match case-insensitively; a crawler no group names falls back to *.
    for (const agent of [...named, ...named.map((token) => token.toLowerCase()), 'SomeOtherBot']) {
      const group = groupFor(groups, agent);
      expect(group.records.get('content-signal'), agent).toEqual(signal);
      expect(
        PATHS.map((path) => isAllowed(group, path)),
        agent,
      ).toEqual(PATHS.map((path) => isAllowed(everyone, path)));
    }
  });
});

describe('api-catalog (RFC 9727) and its anchor', () => {
  it('hints each link with the media type the server sends for it (RFC 8288 section 3.4.1)', async () => {
    const catalog = await json<Linkset>('/.well-known/api-catalog');
    const links = catalogLinks(catalog);
    expect(links.length).toBeGreaterThan(0);
    for (const { relation, link } of links) {
      const response = await get(link.href);
      expect(response.status, link.href).toBe(200);
      expect(link.type, `${relation} ${link.href}`).toBeDefined();
      expect(mediaType(response), `${relation} ${link.href}`).toBe(link.type!.split(';')[0]!.trim().toLowerCase());
    }
    // The Link header's type hint on every API response agrees too.
    const api = await get('/api/v1/projects?limit=1');
    const serviceDesc = /<([^>]+)>; rel="service-desc"; type="([^"]+)"/.exec(api.headers.get('link') ?? '');
    expect(serviceDesc).not.toBeNull();
    expect(mediaType(await get(serviceDesc![1]!))).toBe(serviceDesc![2]);
  });

  it('answers GET and HEAD at the anchor with an index whose links and operations resolve', async () => {
    const catalog = await json<Linkset>('/.well-known/api-catalog');
    const anchor = catalog.linkset[0]!.anchor;
    expect(anchor).toBe(`${SITE}/api/v1`);
    const head = await get(anchor, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const index = await json<{
      links: Record<string, string>;
      operations: { operationId: string; method: string; path: string }[];
    }>(anchor);
    for (const href of Object.values(index.links)) expect((await get(href)).status, href).toBe(200);
    const openapi = await json<{ paths: Record<string, Record<string, { operationId: string }>> }>('/openapi.json');
    expect(index.operations.length).toBeGreaterThan(5);
    for (const operation of index.operations) {
      expect(openapi.paths[operation.path]?.[operation.method.toLowerCase()]?.operationId).toBe(operation.operationId);
    }
    expect(index.operations.map((operation) => operation.path)).toContain('/api/v1');
  });
});

describe('security.txt (RFC 9116)', () => {
  it('has a contact, an expiry in the future and less than a year away, a canonical URL and languages', async () => {
    const response = await get('/.well-known/security.txt');
    expect(response.status).toBe(200);
    // Section 3: text/plain with charset utf-8.
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const fields = new Map<string, string[]>();
    for (const line of (await response.text()).split('\n')) {
      const match = /^([A-Za-z-]+): (.+)$/.exec(line);
      if (match) fields.set(match[1]!.toLowerCase(), [...(fields.get(match[1]!.toLowerCase()) ?? []), match[2]!]);
    }
    // Section 2.5.3: at least one Contact, a URI (mailto:, https: or tel:).
    expect(fields.get('contact')?.length).toBeGreaterThan(0);
    for (const contact of fields.get('contact')!)
      expect(contact).toMatch(/^(mailto:[^@\s]+@\S+|https?:\/\/\S+|tel:\S+)$/);
    // Section 2.5.5: exactly one Expires, RFC 3339; SHOULD be less than a year away.
    expect(fields.get('expires')).toHaveLength(1);
    const expires = fields.get('expires')![0]!;
    expect(expires).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    const remaining = Date.parse(expires) - Date.now();
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThan(365 * 86_400_000);
    // Section 2.5.2: Canonical names where this file lives; section 2.5.8: Preferred-Languages.
    expect(fields.get('canonical')).toEqual([`${SITE}/.well-known/security.txt`]);
    expect(fields.get('preferred-languages')?.[0]).toMatch(
      /^[a-z]{2,3}(-[A-Za-z0-9]+)*(, ?[a-z]{2,3}(-[A-Za-z0-9]+)*)*$/,
    );
  });
});

describe('CORS on public discovery documents', () => {
  it('answers GET and HEAD of each with Access-Control-Allow-Origin: *', async () => {
    const index = await json<{ skills: { url: string }[] }>('/.well-known/agent-skills/index.json');
    const documents = new Set([
      '/.well-known/api-catalog',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/api/v1',
      '/.well-known/oauth-authorization-server',
      '/.well-known/agent-skills/index.json',
      ...index.skills.map((skill) => skill.url),
      '/.well-known/security.txt',
      '/llms.txt',
      '/llms-full.txt',
      '/openapi.json',
      '/openapi.yaml',
      ...DISCOVERY_DOCUMENTS,
      // The MCP Registry's entries; its record is built only with MCP_REGISTRY_PUBLIC_KEY, which this build has not.
      ...REGISTRY_DOCUMENT_PATHS.filter((path) => path !== REGISTRY_AUTH_PATH),
    ]);
    for (const document of documents) {
      for (const method of ['GET', 'HEAD']) {
        const response = await get(document, { method, headers: { origin: 'https://agent.example' } });
        expect(response.status, `${method} ${document}`).toBe(200);
        expect(response.headers.get('access-control-allow-origin'), `${method} ${document}`).toBe('*');
      }
    }
  });
});

describe('CORS on the Markdown twins, data documents, robots.txt and the sitemaps', () => {
  /** Access-Control-Allow-Origin of GET and HEAD of `path`, asked from another origin; both must agree and be a 200. */
  async function allowOrigin(path: string, headers: Record<string, string> = {}): Promise<string | null> {
    const answers = await Promise.all(
      ['GET', 'HEAD'].map((method) => get(path, { method, headers: { origin: 'https://agent.example', ...headers } })),
    );
    for (const answer of answers) expect(answer.status, path).toBe(200);
    expect(answers[1]!.headers.get('access-control-allow-origin'), path).toBe(
      answers[0]!.headers.get('access-control-allow-origin'),
    );
    return answers[0]!.headers.get('access-control-allow-origin');
  }

  it('sends Access-Control-Allow-Origin: * with every Markdown twin of a page the sitemap lists, and with /search.md and /contact.md', async () => {
    const pages = await sitemapPaths(server.baseUrl);
    const twins = pages.map((page) => markdownTwinPath(page.replace(/\?.*$/, '')));
    expect(twins).toContain('/index.md');
    expect(twins).toContain('/agents.md');
    expect(twins).toContain('/auth.md');
    for (const twin of [...new Set(twins), '/search.md?q=leakhound', '/contact.md'])
      expect(await allowOrigin(twin), twin).toBe('*');
  });

  it('sends it with the Markdown a page URL answers to Accept: text/markdown, and not with the HTML page', async () => {
    for (const page of ['/', '/developers', '/agents', '/contact', '/search?q=leakhound']) {
      expect(await allowOrigin(page, { accept: 'text/markdown' }), page).toBe('*');
      expect(await allowOrigin(page, { accept: 'text/html' }), page).toBeNull();
    }
  });

  it('sends it with /portfolio.json, /docs.json, /robots.txt and every sitemap file', async () => {
    const index = await (await get('/sitemap-index.xml')).text();
    const sitemapFiles = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
    expect(sitemapFiles.length).toBeGreaterThan(0);
    for (const document of [
      '/portfolio.json',
      '/docs.json',
      '/robots.txt',
      '/sitemap.xml',
      '/sitemap-index.xml',
      ...sitemapFiles,
    ])
      expect(await allowOrigin(document), document).toBe('*');
  });

  it('answers /AGENTS.md exactly as /agents.md', async () => {
    const [lower, upper] = await Promise.all([get('/agents.md'), get('/AGENTS.md')]);
    expect(upper.status).toBe(200);
    const headers = (response: Response) => {
      const { 'x-request-id': _id, date: _date, ...rest } = Object.fromEntries(response.headers);
      return rest;
    };
    expect(headers(upper)).toEqual(headers(lower));
    expect(upper.headers.get('access-control-allow-origin')).toBe('*');
    expect(await upper.text()).toBe(await lower.text());
  });
});

describe('quotas in documents are the enforced ones', () => {
  interface Quota {
    count: number;
    seconds: number;
  }
  type Observed = Record<'anonymous' | 'test', Record<'read' | 'contact', Quota>>;

  /** The pricing table's rows (pricing.md, and the same page inside llms-full.txt): "120 per 60 s". */
  function pricingTable(markdown: string): Observed {
    const row = (label: RegExp): [Quota, Quota] => {
      const line = markdown.split('\n').find((candidate) => label.test(candidate));
      expect(line, String(label)).toBeDefined();
      const cells = [...line!.matchAll(/(\d+) per (\d+) s\b/g)].map((m) => ({
        count: Number(m[1]),
        seconds: Number(m[2]),
      }));
      expect(cells, line).toHaveLength(2);
      return [cells[0]!, cells[1]!];
    };
    const [readAnonymous, readTest] = row(/^\| Requests\b/);
    const [contactAnonymous, contactTest] = row(/^\| Contact messages\b/);
    return {
      anonymous: { read: readAnonymous, contact: contactAnonymous },
      test: { read: readTest, contact: contactTest },
    };
  }

  /** The OpenAPI text of an operation: "Quota: 120 requests per 60 seconds per client IP; with a test key, 1200 ...". */
  function openApiQuota(description: string, unit: string): [Quota, Quota] {
    const match = new RegExp(
      `Quota: (\\d+) ${unit} per (\\d+) seconds per client IP; with a test key, (\\d+) ${unit} per (\\d+) seconds per key`,
    ).exec(description);
    expect(match, description).not.toBeNull();
    const [, a, b, c, d] = match!.map(Number);
    return [
      { count: a!, seconds: b! },
      { count: c!, seconds: d! },
    ];
  }

  /** What a caller sees: RateLimit-Limit, and RateLimit-Reset (seconds until the window resets) within the window. */
  function seen(response: Response): { limit: number; reset: number } {
    expect(response.headers.get('ratelimit-limit'), response.url).toMatch(/^\d+$/);
    return {
      limit: Number(response.headers.get('ratelimit-limit')),
      reset: Number(response.headers.get('ratelimit-reset')),
    };
  }

  it('pricing.md, llms-full.txt, llms.txt and the OpenAPI text match the RateLimit headers of anonymous and test-key callers', async () => {
    const pricing = pricingTable(await (await get('/pricing.md')).text());
    expect(pricingTable(await (await get('/llms-full.txt')).text())).toEqual(pricing);
    // llms.txt states no quota numbers today; any it states must be the enforced ones.
    for (const m of (await (await get('/llms.txt')).text()).matchAll(/(\d+) (requests|messages) per (\d+)/g)) {
      const quota = pricing.anonymous[m[2] === 'requests' ? 'read' : 'contact'];
      expect({ count: Number(m[1]), seconds: Number(m[3]) }).toEqual(quota);
    }
    const openapi = await json<{ paths: Record<string, Record<string, { description: string }>> }>('/openapi.json');
    const [readAnonymous, readTest] = openApiQuota(openapi.paths['/api/v1/projects']!.get!.description, 'requests');
    const [contactAnonymous, contactTest] = openApiQuota(
      openapi.paths['/api/v1/contact']!.post!.description,
      'messages',
    );
    expect({
      anonymous: { read: readAnonymous, contact: contactAnonymous },
      test: { read: readTest, contact: contactTest },
    }).toEqual(pricing);

    const created = await get('/api/v1/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    const callers = { anonymous: {}, test: { 'x-api-key': key } } as const;
    for (const tier of ['anonymous', 'test'] as const) {
      const read = seen(await get('/api/v1/projects?limit=1', { headers: callers[tier] }));
      const contactResponse = await get('/api/v1/contact', {
        method: 'POST',
        headers: { ...callers[tier], 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify(VALID),
      });
      expect(contactResponse.status, tier).toBe(200);
      // pricing.md: an accepted message reports the message quota in its RateLimit-* headers.
      const contact = seen(contactResponse);
      for (const [quota, observed] of [
        ['read', read],
        ['contact', contact],
      ] as const) {
        const documented = pricing[tier][quota];
        expect(observed.limit, `${tier} ${quota}`).toBe(documented.count);
        expect(observed.reset, `${tier} ${quota}`).toBeGreaterThan(0);
        expect(observed.reset, `${tier} ${quota}`).toBeLessThanOrEqual(documented.seconds);
      }
    }
  });
});
