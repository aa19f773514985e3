import RobotsTxt from 'lighthouse/core/audits/seo/robots-txt.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type InProcessService } from '../support/service.ts';
import { readSitemap } from '../support/sitemap.ts';

/** The server runs with the SITE_URL it was built with, so absolute links resolve to it. */
const SITE = 'http://localhost:4321';
let server: InProcessService;

beforeAll(async () => {
  server = await startService({ READ_RATE_LIMIT: '100000/60' });
});
afterAll(() => server.stop());

/** A site URL fetched from the test server. */
function local(url: string): string {
  return url.startsWith(SITE) ? `${server.baseUrl}${url.slice(SITE.length)}` : url;
}

async function text(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, { headers });
  return { response, body: await response.text() };
}

async function expectAllAnswer200(urls: Iterable<string>): Promise<void> {
  for (const url of new Set(urls)) {
    const response = await fetch(local(url.replace(/#.*$/, '')), { method: 'GET' });
    expect(response.status, url).toBe(200);
  }
}

describe('llms.txt and llms-full.txt', () => {
  it('follows llmstxt.org: H1, one summary line, H2 sections of links only, an Optional section', async () => {
    const { response, body } = await text('/llms.txt');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = body.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^> \S/);
    const sections = lines.filter((line) => line.startsWith('## '));
    expect(sections).toContain('## Optional');
    expect(sections.at(-1)).toBe('## Optional');
    for (const line of lines.slice(lines.indexOf(sections[0]!))) {
      if (line === '' || line.startsWith('## ')) continue;
      expect(line).toMatch(/^- \[[^\]]+\]\(https?:\/\/[^)]+\)(: .+)?$/);
    }
    await expectAllAnswer200([...body.matchAll(/\]\((https?:\/\/[^)]+)\)/g)].map((m) => m[1]!));
  });

  it('carries the full text of every doc and project', async () => {
    const { body } = await text('/llms-full.txt');
    const projects = (await (await fetch(`${server.baseUrl}/api/v1/projects?limit=100`)).json()) as {
      data: { title: string }[];
    };
    for (const project of projects.data) expect(body).toContain(`# ${project.title}`);
    expect(body).toContain('# Deprecation policy');
    expect(body).not.toContain('{{');
  });
});

describe('sitemap.xml and robots.txt', () => {
  it('is a sitemap index naming the sitemap files, as XML', async () => {
    for (const path of ['/sitemap.xml', '/sitemap-index.xml']) {
      const { response, body } = await text(path);
      expect(response.headers.get('content-type'), path).toBe('application/xml; charset=utf-8');
      expect(body, path).toMatch(
        /^<\?xml version="1.0" encoding="UTF-8"\?><sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
      );
      const files = [...body.matchAll(/<sitemap><loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
      expect(files, path).toEqual([`${SITE}/sitemap-0.xml`]);
    }
    const { response, body } = await text('/sitemap-0.xml');
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?><urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
  });

  it('lists every page with absolute URLs and content dates, and nothing robots.txt disallows', async () => {
    const entries = await readSitemap(server.baseUrl);
    const locs = entries.map(({ loc }) => loc);
    expect(locs.filter((loc) => loc.includes('/projects/'))).toHaveLength(19);
    expect(locs.filter((loc) => loc.includes('/stack/'))).toHaveLength(41);
    expect(locs).toEqual(
      expect.arrayContaining([`${SITE}/`, `${SITE}/developers`, `${SITE}/search`, `${SITE}/contact`]),
    );
    expect(locs).not.toContain(`${SITE}/contact/thanks`);
    expect(locs).not.toContain(`${SITE}/404`);
    expect(locs.every((loc) => loc.startsWith(SITE))).toBe(true);
    const anomalyRadar = (await (await fetch(`${server.baseUrl}/api/v1/projects/anomaly-radar`)).json()) as {
      updated: string;
    };
    expect(entries.find(({ loc }) => loc === `${SITE}/projects/anomaly-radar`)?.lastmod).toBe(
      `${anomalyRadar.updated}T00:00:00.000Z`,
    );
    expect(entries.find(({ loc }) => loc === `${SITE}/developers`)?.lastmod).toBeUndefined();
    await expectAllAnswer200(locs);
  });

  it('names the sitemap, the AI crawler policy and the content signal', async () => {
    const { body } = await text('/robots.txt');
    expect(body).toContain(`Sitemap: ${SITE}/sitemap.xml`);
    expect(body).toMatch(/^User-agent: GPTBot$/m);
    expect(body).toMatch(/^User-agent: ClaudeBot$/m);
    expect(body).toMatch(/^Content-Signal: .*ai-train=no/m);
  });

  it("passes Lighthouse 13's robots.txt audit, which would refuse an AIPREF Content-Usage line", async () => {
    const { body } = await text('/robots.txt');
    expect(robotsAudit(body)).toEqual({ score: 1, errors: [] });
    // Lighthouse's parser knows a fixed list of directives; Content-Usage is not on it, so the
    // line stays out of robots.txt (docs/features.md).
    expect(body).not.toMatch(/^Content-Usage:/im);
    const withUsage = body.replace(/^(Content-Signal: .*)$/m, '$1\nContent-Usage: train-ai=n');
    expect(robotsAudit(withUsage)).toEqual({
      score: 0,
      errors: [{ line: 'Content-Usage: train-ai=n', message: 'Unknown directive' }],
    });
  });
});

/** Lighthouse's robots-txt audit (its own parser) on a robots.txt served with status 200. */
function robotsAudit(content: string): { score: number | null; errors: { line: string; message: string }[] } {
  const result = RobotsTxt.audit({ RobotsTxt: { status: 200, content, errorMessage: undefined } } as never) as {
    score: number | null;
    details?: { items: { line: string; message: string }[] };
  };
  return { score: result.score, errors: (result.details?.items ?? []).map(({ line, message }) => ({ line, message })) };
}

describe('api-catalog (RFC 9727)', () => {
  it('is a linkset with the profile, every relation an array of hrefs that answer', async () => {
    const { response, body } = await text('/.well-known/api-catalog');
    expect(response.headers.get('content-type')).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    expect(response.headers.get('etag')).toMatch(/^"/);
    const catalog = JSON.parse(body) as { linkset: Record<string, unknown>[] };
    expect(Object.keys(catalog)).toEqual(['linkset']);
    const hrefs: string[] = [];
    for (const entry of catalog.linkset) {
      for (const [relation, value] of Object.entries(entry)) {
        if (relation === 'anchor') continue;
        expect(Array.isArray(value), relation).toBe(true);
        for (const link of value as { href: string }[]) hrefs.push(link.href);
      }
      for (const relation of ['service-desc', 'service-doc', 'service-meta', 'status'])
        expect(entry).toHaveProperty(relation);
    }
    expect(hrefs).toEqual(
      expect.arrayContaining([`${SITE}/openapi.json`, `${SITE}/openapi.yaml`, `${SITE}/auth.md`, `${SITE}/pricing.md`]),
    );
    await expectAllAnswer200(hrefs);
  });

  it('answers HEAD with the api-catalog Link, as do the home page and API responses', async () => {
    for (const [path, method] of [
      ['/.well-known/api-catalog', 'HEAD'],
      ['/', 'GET'],
      ['/api/v1/projects', 'GET'],
    ] as const) {
      const response = await fetch(`${server.baseUrl}${path}`, { method });
      expect(response.headers.get('link'), path).toContain('</.well-known/api-catalog>; rel="api-catalog"');
      expect(response.headers.get('link'), path).toContain('rel="service-desc"');
    }
  });
});

describe('OAuth discovery', () => {
  it('describes the API as a protected resource (RFC 9728) without empty members', async () => {
    const metadata = JSON.parse((await text('/.well-known/oauth-protected-resource/api/v1')).body) as Record<
      string,
      unknown
    >;
    expect(metadata.resource).toBe(`${SITE}/api/v1`);
    expect(metadata.authorization_servers).toEqual([SITE]);
    for (const value of Object.values(metadata)) if (Array.isArray(value)) expect(value.length).toBeGreaterThan(0);
  });

  it('describes exactly the token endpoint that exists (RFC 8414)', async () => {
    const metadata = JSON.parse((await text('/.well-known/oauth-authorization-server')).body) as Record<
      string,
      unknown
    >;
    expect(metadata.issuer).toBe(SITE);
    expect(metadata.token_endpoint).toBe(`${SITE}/oauth/token`);
    expect(metadata.grant_types_supported).toEqual(['client_credentials']);
    expect(metadata.response_types_supported).toEqual(['none']);
    expect(metadata).not.toHaveProperty('authorization_endpoint');
    const token = await fetch(local(metadata.token_endpoint as string), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(401);
  });
});

// The agent skills index and SKILL.md are checked against Agent Skills Discovery v0.2.0 in spec-documents.test.ts.

describe('documentation pages', () => {
  const pages = [
    '/developers',
    '/developers/cli',
    '/developers/sdk',
    '/developers/deprecation',
    '/sandbox',
    '/auth',
    '/pricing',
  ];

  it('publishes each page and its Markdown twin, with facts filled in', async () => {
    for (const page of pages) {
      const html = await text(page);
      expect(html.response.status, page).toBe(200);
      const markdown = await text(`${page}.md`);
      expect(markdown.response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(markdown.body).toMatch(/^# \S/);
      expect(markdown.body + html.body, page).not.toContain('{{');
    }
  });

  it('quotes the configured quotas and every error code', async () => {
    const pricing = (await text('/pricing.md')).body;
    expect(pricing).toContain('120 per 60 s');
    const developers = (await text('/developers.md')).body;
    for (const code of ['invalid_cursor', 'idempotency_key_reused', 'batch_failed', 'queue_full'])
      expect(developers).toContain(`\`${code}\``);
  });

  it('negotiates Markdown by Accept, with Vary: Accept', async () => {
    const markdown = await text('/projects/leakhound', { accept: 'text/markdown' });
    expect(markdown.response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(markdown.response.headers.get('vary')).toContain('Accept');
    expect(markdown.body.startsWith('# Leakhound')).toBe(true);
    const html = await text('/projects/leakhound', { accept: 'text/html,text/markdown;q=0.5' });
    expect(html.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.response.headers.get('vary')).toContain('Accept');
    expect((await text('/', { accept: 'text/markdown' })).body).toMatch(/^# /);
    expect((await text('/developers', { accept: 'text/markdown' })).body).toMatch(/^# Developers/);
  });

  it('links only to pages that answer', async () => {
    const hrefs: string[] = [];
    for (const page of pages) {
      const { body } = await text(page);
      hrefs.push(...[...body.matchAll(/href="(\/[^"#]*)/g)].map((m) => `${SITE}${m[1]!}`));
    }
    await expectAllAnswer200(hrefs);
  });
});

describe('deprecated aliases', () => {
  it('answer like their successors with Deprecation, Sunset and Link headers', async () => {
    for (const [alias, successor] of [
      ['/api/projects?limit=2', '/api/v1/projects?limit=2'],
      ['/api/projects/leakhound', '/api/v1/projects/leakhound'],
    ]) {
      const old = await fetch(`${server.baseUrl}${alias}`);
      const current = await fetch(`${server.baseUrl}${successor}`);
      expect(await old.json()).toEqual(await current.json());
      const deprecation = old.headers.get('deprecation')!;
      expect(deprecation).toMatch(/^@\d+$/);
      const sunset = old.headers.get('sunset')!;
      expect(sunset).toMatch(/GMT$/);
      expect(Date.parse(sunset)).toBeGreaterThanOrEqual(Number(deprecation.slice(1)) * 1000);
      expect(old.headers.get('link')).toContain(`<${SITE}/developers/deprecation>; rel="deprecation"`);
      expect(old.headers.get('link')).toContain('rel="successor-version"');
      expect(current.headers.get('deprecation')).toBeNull();
    }
    const missing = await fetch(`${server.baseUrl}/api/projects/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('sunset')).toMatch(/GMT$/);
  });
});
