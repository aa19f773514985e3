import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isServicePath } from '../../functions/config/public-urls.ts';
import {
  deploysFunctions,
  filesAtServicePaths,
  netlifyFunctionPaths,
  originalRequest,
  VERCEL_FUNCTION,
  vercelFunctionRewrites,
} from '../../functions/hosts/static/function-routes.ts';
import { vercelRewrite, type VercelJson } from '../support/host-readers/vercel.ts';
import { ROOT } from '../support/server.ts';

/** Paths the service answers and paths it does not, as a visitor requests them. */
const SERVICE = [
  '/api',
  '/api/v1/projects',
  '/api/v1/projects/leakhound',
  '/oauth/token',
  '/mcp',
  '/mcp/docs',
  '/contact',
  '/contact.md',
  '/search',
  '/search.md',
];
const PAGES = [
  '/',
  '/projects/leakhound',
  '/contact/thanks',
  '/api-docs',
  '/mcpx',
  '/searching',
  '/developers/deprecation',
];

describe('the paths each function host sends to the service', () => {
  it('lists the service paths the same way the router says them', () => {
    for (const urlPath of [...SERVICE, ...PAGES])
      expect(isServicePath(urlPath), urlPath).toBe(SERVICE.includes(urlPath));
  });

  it('Netlify: the function’s URLPatterns match every service path and no page', () => {
    const patterns = netlifyFunctionPaths().map((pathname) => new URLPattern({ pathname }));
    const matched = (urlPath: string) => patterns.some((pattern) => pattern.test({ pathname: urlPath }));
    for (const urlPath of SERVICE) expect(matched(urlPath), urlPath).toBe(true);
    for (const urlPath of PAGES) expect(matched(urlPath), urlPath).toBe(false);
  });

  it('Cloudflare: wrangler.toml runs the Worker first on the same paths as the Netlify function', () => {
    const toml = readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8');
    const list = /^run_worker_first = (\[.*\])$/m.exec(toml)?.[1];
    expect(list).toBeDefined();
    expect(new Set(JSON.parse(list!) as string[])).toEqual(new Set(netlifyFunctionPaths()));
  });

  it('Vercel: the committed vercel.json rewrites every service path to the function, which gets the visitor’s request back', () => {
    const config = JSON.parse(readFileSync(path.join(ROOT, 'vercel.json'), 'utf8')) as VercelJson & {
      functions: Record<string, unknown>;
      crons: { path: string }[];
    };
    expect(config.rewrites).toEqual(vercelFunctionRewrites());
    for (const file of [...Object.keys(config.functions), ...config.crons.map((cron) => `${cron.path.slice(1)}.mjs`)])
      expect(existsSync(path.join(ROOT, file)), file).toBe(true);
    expect(existsSync(path.join(ROOT, `${VERCEL_FUNCTION.slice(1)}.mjs`))).toBe(true);

    for (const urlPath of SERVICE) {
      const destination = vercelRewrite(config, urlPath);
      expect(destination, urlPath).toBeDefined();
      // Vercel keeps the visitor's query beside the rewrite's own parameters.
      const rewritten = new Request(new URL(`${destination!}&q=1`, 'https://portfolio.example'));
      expect(new URL(originalRequest(rewritten).url).pathname + new URL(originalRequest(rewritten).url).search).toBe(
        `${urlPath}?q=1`,
      );
    }
    for (const urlPath of PAGES) expect(vercelRewrite(config, urlPath), urlPath).toBeUndefined();
  });

  it('Vercel: a rewritten POST keeps its method, headers and body; a request that names its own path is left as it is', async () => {
    const rewritten = new Request(`https://portfolio.example${VERCEL_FUNCTION}?__service_path=/api/v1/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' },
      body: '{"a":1}',
    });
    const original = originalRequest(rewritten);
    expect([original.method, new URL(original.url).pathname, original.headers.get('idempotency-key')]).toEqual([
      'POST',
      '/api/v1/contact',
      'k-1',
    ]);
    expect(await original.text()).toBe('{"a":1}');
    const direct = new Request('https://portfolio.example/api/v1/projects?__service_path=/elsewhere');
    expect(originalRequest(direct)).toBe(direct);
  });
});

describe('when the build deploys the service as functions', () => {
  const shared = { databaseUrl: 'postgresql://db', apiOrigin: null, backendOrigin: null };

  it('only with PostgreSQL (Redis is optional), and not when the dynamic paths are proxied elsewhere', () => {
    expect(deploysFunctions(shared)).toBe(true);
    expect(deploysFunctions({ ...shared, databaseUrl: null })).toBe(false);
    expect(deploysFunctions({ ...shared, backendOrigin: 'https://backend.example' })).toBe(false);
    expect(deploysFunctions({ ...shared, apiOrigin: 'https://api.example' })).toBe(false);
  });

  it('finds the built files that would shadow the function’s paths on Vercel, and no other', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'function-routes-'));
    const files = [
      'contact.html',
      'contact.html.br',
      'contact.md.gz',
      'search.html',
      'contact/thanks.html',
      'index.html',
      'mcp/docs/index.html',
    ];
    for (const file of files) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), '');
    }
    const found = filesAtServicePaths(dir).map((file) => path.relative(dir, file));
    expect(new Set(found)).toEqual(
      new Set(['contact.html', 'contact.html.br', 'contact.md.gz', 'search.html', 'mcp/docs/index.html']),
    );
  });
});
