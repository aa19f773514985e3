import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServicePath, SERVICE_PATHS, type PublicOrigins } from '../../functions/config/public-urls.ts';
import { securityHeaders } from '../../functions/http/security-headers.ts';
import {
  builtFileHeaders,
  HOST_RULE_FILES,
  type HeaderTable,
} from '../../functions/hosts/static/built-file-headers.ts';
import { cloudflareHeaderRules, cloudflarePageHeaders } from '../../functions/hosts/cloudflare/cloudflare-headers.ts';
import { headerRules } from '../../functions/hosts/static/header-rules.ts';
import { answeredByService, staticHostPaths } from '../../functions/hosts/static/static-host-paths.ts';
import { CLOUDFLARE_MAX_HEADER_RULES, headersFile } from '../../functions/hosts/static/headers-file.ts';
import { redirectsFile } from '../../functions/hosts/static/redirects-file.ts';
import { COMPRESSED_VARIANTS, listBuiltFiles } from '../../functions/hosts/static/built-files.ts';
import { vercelConfig, vercelIgnore } from '../../functions/hosts/vercel/vercel-config.ts';
import { proxyTarget } from '../../functions/hosts/static/proxy-target.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { docFacts } from '../../functions/discovery/doc-facts.ts';
import { buildOpenApiDocument } from '../../functions/openapi/document.ts';
import {
  cloudflareFileFor,
  cloudflareHeadersFor,
  DEFAULT_HEADERS as CLOUDFLARE_DEFAULTS,
  parseCloudflareHeaders,
  parseCloudflareRedirects,
} from '../support/host-readers/cloudflare.ts';
import {
  netlifyHeadersFor,
  netlifyRoute,
  parseNetlifyHeaders,
  parseNetlifyRedirects,
} from '../../functions/hosts/netlify/netlify-rules.ts';
import { vercelHeadersFor, vercelRoute, vercelUploaded, type VercelJson } from '../support/host-readers/vercel.ts';
import { ROOT } from '../support/server.ts';
import { startService, type InProcessService } from '../support/service.ts';

/**
 * The static hosts' rules that `npm run build` writes (scripts/host-rules.ts), read with each
 * host's documented matching rules (tests/support/host-readers): for every file of the build,
 * each host sends the headers of the header table, which is what the Node server sends.
 */
const CLIENT = path.join(ROOT, 'dist', 'client');
const BUILT_SITE = (
  JSON.parse(readFileSync(path.join(ROOT, 'dist', 'build-manifest.json'), 'utf8')) as {
    environment: { SITE_URL: string };
  }
).environment.SITE_URL;
const API_ORIGIN = 'https://api.ada.example';
/** The same-origin proxy: the pages name the site, the host rules proxy to this backend. */
const BACKEND_ORIGIN = 'https://backend.ada.example';
const VARIANT_SUFFIXES: readonly string[] = Object.values(COMPRESSED_VARIANTS);

const served = listBuiltFiles(CLIENT);
const everyFile = new Set([...served, ...HOST_RULE_FILES]);
const read = (name: string) => readFileSync(path.join(CLIENT, name), 'utf8');

/** The paths the built files answer for on every host: the table's, less the service's own (proxied). */
function staticPaths(table: HeaderTable): [string, { file: string; headers: Readonly<Record<string, string>> }][] {
  return [...table.paths].filter(([urlPath]) => !isServicePath(urlPath));
}

/** One setting of the build (its SITE_URL, API_ORIGIN and BACKEND_ORIGIN): its table and the rules written from it, as scripts/host-rules.ts writes them. */
function generated(siteUrl: string, apiOrigin: string, backendOrigin = '') {
  const origins: PublicOrigins = { siteUrl, apiOrigin: apiOrigin === '' ? null : apiOrigin };
  const target = proxyTarget({
    apiOrigin: origins.apiOrigin,
    backendOrigin: backendOrigin === '' ? null : backendOrigin,
  });
  const table = builtFileHeaders(served, origins);
  const rules = headerRules(staticHostPaths(table), answeredByService(origins));
  return {
    origins,
    target,
    table,
    headers: headersFile(rules),
    cloudflareHeaders: headersFile(cloudflareHeaderRules(table, origins)),
    reducedForCloudflare: rules.length > CLOUDFLARE_MAX_HEADER_RULES,
    redirects: redirectsFile(table, target),
    vercel: vercelConfig(table, rules, target) as VercelJson,
    vercelIgnore: vercelIgnore(table, target, VARIANT_SUFFIXES),
  };
}

const settings = {
  'as built (the files in dist/client)': {
    ...generated(BUILT_SITE, ''),
    headers: read('_headers'),
    redirects: read('_redirects'),
    vercel: JSON.parse(read('vercel.json')) as VercelJson,
    vercelIgnore: read('.vercelignore'),
  },
  'on https with an API origin': generated('https://ada.example', API_ORIGIN),
  'on https behind a same-origin proxy (BACKEND_ORIGIN)': generated('https://ada.example', '', BACKEND_ORIGIN),
};

describe.each(Object.entries(settings))('host rules %s', (_name, setting) => {
  const { table } = setting;
  const paths = staticPaths(table);

  it('covers every file of the build: served at a path of the table, a variant of one, a host rule file, or the 404 page', () => {
    const files = new Set(paths.map(([, entry]) => entry.file));
    for (const [urlPath, entry] of table.paths) if (isServicePath(urlPath)) files.add(entry.file);
    for (const file of listAll()) {
      const source = VARIANT_SUFFIXES.reduce(
        (name, suffix) => (name.endsWith(suffix) ? name.slice(0, -suffix.length) : name),
        file,
      );
      const known =
        files.has(source) ||
        HOST_RULE_FILES.has(file) ||
        source === table.notFound?.file ||
        source === table.notFoundMarkdown?.file;
      expect(known, file).toBe(true);
    }
  });

  it('Netlify: every path serves its file with exactly the table headers, no header set by two rules', () => {
    const netlify = parseNetlifyHeaders(setting.headers);
    const redirects = parseNetlifyRedirects(setting.redirects);
    for (const [urlPath, entry] of paths) {
      const route = netlifyRoute(redirects, everyFile, urlPath);
      expect(route, urlPath).toEqual({ file: entry.file });
      const { headers, conflicts } = netlifyHeadersFor(netlify, urlPath);
      expect(conflicts, urlPath).toEqual([]);
      expect(headers, urlPath).toEqual(entry.headers);
    }
  });

  it('Cloudflare Pages: within its limits, every path serves its file with the table headers, less what its defaults give pages, plus its own', () => {
    const cloudflare = parseCloudflareHeaders(setting.cloudflareHeaders);
    const redirects = parseCloudflareRedirects(setting.redirects);
    for (const [urlPath, entry] of paths) {
      const rewrite = redirects.find((rule) => rule.source === urlPath && rule.code === 200);
      expect(rewrite?.destination ?? cloudflareFileFor(everyFile, urlPath), urlPath).toBe(entry.file);
      const { headers, conflicts } = cloudflareHeadersFor(cloudflare, urlPath);
      expect(conflicts, urlPath).toEqual([]);
      const expected = {
        ...CLOUDFLARE_DEFAULTS,
        ...(setting.reducedForCloudflare
          ? cloudflarePageHeaders(table, urlPath, entry.headers, originsOf(setting).siteUrl)
          : entry.headers),
      };
      // A page whose type is left to the host: the reader cannot say Cloudflare's, but its file is HTML.
      if (expected['content-type'] === undefined) expect(entry.file, urlPath).toMatch(/\.html$/);
      expect(headers, urlPath).toEqual(expected);
      // What the defaults stand for is the table's own value.
      expect(headers['cache-control'], urlPath).toBe(entry.headers['cache-control']);
    }
  });

  it('Vercel: every path serves its file with exactly the table headers, no header set by two rules', () => {
    const uploaded = vercelUploaded(listAllSet(), setting.vercelIgnore);
    for (const [urlPath, entry] of paths) {
      const route = vercelRoute(setting.vercel, uploaded, urlPath);
      const { headers, conflicts } = vercelHeadersFor(setting.vercel, urlPath);
      expect(conflicts, urlPath).toEqual([]);
      if ('file' in route && route.file === undefined) {
        // "/.well-known is reserved and cannot be redirected or rewritten": a document built elsewhere is lost there.
        expect(urlPath.startsWith('/.well-known/') && entry.file !== urlPath, urlPath).toBe(true);
        continue;
      }
      expect(route, urlPath).toEqual({ file: entry.file });
      expect(headers, urlPath).toEqual(entry.headers);
    }
  });

  it('the service paths reach the proxy target (BACKEND_ORIGIN, else API_ORIGIN) through Netlify and Vercel, and through neither without one', () => {
    const { target } = setting;
    const netlifyRedirects = parseNetlifyRedirects(setting.redirects);
    const samples = [
      ...SERVICE_PATHS.exact,
      ...SERVICE_PATHS.prefixes.flatMap((prefix) => [`${prefix}x`, `${prefix}x/y`]),
    ];
    for (const urlPath of samples) {
      expect(isServicePath(urlPath), urlPath).toBe(true);
      const expected = target === '' ? undefined : { proxy: `${target}${urlPath}` };
      const fromNetlify = netlifyRoute(netlifyRedirects, everyFile, urlPath);
      const fromVercel = vercelRoute(setting.vercel, vercelUploaded(listAllSet(), setting.vercelIgnore), urlPath);
      if (expected === undefined) {
        expect('proxy' in fromNetlify, urlPath).toBe(false);
        expect('proxy' in fromVercel, urlPath).toBe(false);
      } else {
        expect(fromNetlify, urlPath).toEqual(expected);
        expect(fromVercel, urlPath).toEqual(expected);
      }
    }
    // No rule but the one for every path (the security headers, which the service sends too) reaches a service path.
    const common = Object.keys(securityHeaders(originsOf(setting)));
    const netlify = parseNetlifyHeaders(setting.headers);
    for (const urlPath of answeredByService(originsOf(setting)).paths) {
      expect(Object.keys(netlifyHeadersFor(netlify, urlPath).headers), urlPath).toEqual(common);
      expect(Object.keys(vercelHeadersFor(setting.vercel, urlPath).headers), urlPath).toEqual(common);
    }
    // A static path is not proxied.
    for (const [urlPath] of paths)
      expect('proxy' in netlifyRoute(netlifyRedirects, everyFile, urlPath), urlPath).toBe(false);
  });
});

function originsOf(setting: { origins: PublicOrigins }): PublicOrigins {
  return setting.origins;
}

describe('the same-origin proxy (BACKEND_ORIGIN)', () => {
  const setting = settings['on https behind a same-origin proxy (BACKEND_ORIGIN)'];

  it('names the backend only in the proxy lines: every header of the table and every host rule but those names the site', () => {
    expect(setting.target).toBe(BACKEND_ORIGIN);
    const redirectLines = setting.redirects.split('\n').filter((line) => line.includes(BACKEND_ORIGIN));
    expect(redirectLines.length).toBe(SERVICE_PATHS.exact.length + SERVICE_PATHS.prefixes.length);
    for (const line of redirectLines)
      expect(line, line).toMatch(/^\/\S*\s+https:\/\/backend\.ada\.example\/\S*\s+200!$/);
    const rewrites = setting.vercel.rewrites ?? [];
    expect(rewrites.filter((rewrite) => rewrite.destination.startsWith(BACKEND_ORIGIN)).length).toBe(
      redirectLines.length,
    );
    const { rewrites: _rewrites, ...vercelRest } = setting.vercel;
    for (const text of [
      setting.headers,
      setting.cloudflareHeaders,
      JSON.stringify(vercelRest),
      JSON.stringify([...setting.table.paths]),
    ])
      expect(text).not.toContain('backend.ada.example');
    // The pages' security policy lets them reach their own origin only, which the proxy answers for.
    const csp = securityHeaders(setting.origins)['content-security-policy'] ?? '';
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('ada.example');
  });

  it('leaves the page templates of the proxied paths out of the Vercel upload, as with an API origin', () => {
    expect(setting.vercelIgnore).toBe(settings['on https with an API origin'].vercelIgnore);
    expect(settings['as built (the files in dist/client)'].vercelIgnore).not.toBe(setting.vercelIgnore);
  });

  it('keeps every document on SITE_URL: the facts the pages and skills quote, OpenAPI servers and the token URL', () => {
    const config = loadConfig({ SITE_URL: 'https://ada.example', BACKEND_ORIGIN });
    const facts = docFacts(config);
    expect(facts).toMatchObject({ serviceUrl: 'https://ada.example', 'mcp.url': 'https://ada.example/mcp' });
    const document = buildOpenApiDocument(config);
    expect(document.servers).toEqual([{ url: 'https://ada.example' }]);
    expect(JSON.stringify([facts, document])).not.toContain('backend.ada.example');
  });
});

function listAllSet(): Set<string> {
  return new Set(listAll());
}

/** Every file under the client dir, variants and host rules included. */
function listAll(): string[] {
  return readdirSync(CLIENT, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${path.relative(CLIENT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`);
}

describe('the table is what the Node server sends', () => {
  let service: InProcessService;
  beforeAll(async () => {
    service = await startService({ READ_RATE_LIMIT: '100000/60' });
  });
  afterAll(() => service.stop());

  it('for a path of each kind of headers, the live answer carries the table headers and only what a host computes besides', async () => {
    const table = builtFileHeaders(served, { siteUrl: BUILT_SITE, apiOrigin: null });
    const byKind = new Map<string, string>();
    for (const [urlPath, entry] of staticPaths(table)) {
      const { link: _link, ...kind } = entry.headers;
      byKind.set(JSON.stringify(kind), byKind.get(JSON.stringify(kind)) ?? urlPath);
    }
    expect(byKind.size).toBeGreaterThan(5);
    for (const urlPath of byKind.values()) {
      const response = await fetch(`${service.baseUrl}${urlPath}`, { headers: { 'accept-encoding': 'identity' } });
      expect(response.status, urlPath).toBe(200);
      const sent = Object.fromEntries([...response.headers].filter(([name]) => !HOST_COMPUTED.has(name)));
      // Vary: Accept-Encoding is the host's (it names its own compression); the table keeps the rest.
      const vary = sent.vary?.split(', ').filter((token) => token !== 'Accept-Encoding');
      if (vary === undefined || vary.length === 0) delete sent.vary;
      else sent.vary = vary.join(', ');
      expect(sent, urlPath).toEqual(table.paths.get(urlPath)?.headers);
    }
  });
});

/** What every host computes from the bytes or the connection, outside the table. */
const HOST_COMPUTED = new Set([
  'etag',
  'content-length',
  'content-encoding',
  'x-request-id',
  'date',
  'connection',
  'keep-alive',
]);
