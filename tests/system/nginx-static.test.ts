import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServicePath } from '../../functions/app/handle.ts';
import { siteBaseUrl } from '../../functions/config/site-url.ts';
import {
  builtFileHeaders,
  NEGOTIATED_MARKDOWN_CACHE,
  type HeaderTable,
} from '../../functions/hosts/static/built-file-headers.ts';
import { NGINX_SITE_FILE, nginxSiteForBuild } from '../../functions/hosts/nginx/site-for-build.ts';
import { listBuiltFiles } from '../../functions/hosts/static/built-files.ts';
import { freePort } from '../support/free-port.ts';
import {
  checkInDebianConfig,
  clientFetch,
  HAS_BROTLI_STATIC,
  HAS_DEBIAN_NGINX_CONF,
  HAS_NGINX,
  startNginx,
  type RunningNginx,
} from '../support/nginx.ts';
import { ROOT } from '../support/server.ts';
import { startService, type InProcessService } from '../support/service.ts';

const DIST = path.join(ROOT, 'dist');
const CLIENT_DIR = path.join(DIST, 'client');

interface RawInit {
  method?: string;
  headers?: Record<string, string>;
}

/**
 * One request as it is, over HTTP or HTTPS: no header added (fetch would add Accept-Encoding) and
 * the body as it came (fetch would decode it). Repeated header lines are joined as fetch does.
 */
function rawRequest(url: string, init: RawInit, ca: string) {
  return new Promise<{ status: number; headers: Headers; body: Buffer }>((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const outgoing = send(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, ca }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const headers = new Headers();
        for (let i = 0; i < incoming.rawHeaders.length; i += 2)
          headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
        resolve({ status: incoming.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** An answer reduced to what the two servers must agree on. */
interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: Buffer;
}

/**
 * The generated nginx site (functions/hosts/nginx/site.ts) run by Debian's nginx with NOTHING
 * behind it: its upstream is a port nobody listens on, so every answer below is nginx's own. Each
 * is compared, live, with the Node service's answer to the same request (in process,
 * tests/support/service.ts): status, body and every header the header table decides (type,
 * caching, CORS, the security headers, Link, Vary), plus Content-Encoding.
 */
describe.skipIf(!HAS_NGINX)('nginx serving the build alone, as the Node service does', () => {
  let node: InProcessService;
  let nginx: RunningNginx;
  let table: HeaderTable;
  let compared: string[];

  beforeAll(async () => {
    node = await startService();
    nginx = await startNginx(await freePort());
    const manifest = JSON.parse(readFileSync(path.join(DIST, 'build-manifest.json'), 'utf8')) as {
      environment: { SITE_URL: string };
    };
    table = builtFileHeaders(listBuiltFiles(CLIENT_DIR), {
      siteUrl: siteBaseUrl(manifest.environment.SITE_URL)!,
      apiOrigin: null,
    });
    const decided = [...table.paths.values()].flatMap((served) => Object.keys(served.headers));
    compared = [...new Set([...decided, 'content-encoding'])].sort();
  });
  afterAll(async () => {
    await nginx?.stop();
    await node?.stop();
  });

  const get = async (base: string, urlPath: string, init: RawInit = {}): Promise<Answer> => {
    const answer = await rawRequest(`${base}${urlPath}`, init, nginx.ca);
    const headers = Object.fromEntries(compared.map((name) => [name, answer.headers.get(name)]));
    return { status: answer.status, headers, body: answer.body };
  };
  /** The same request to both; the answers must be equal. */
  const expectSame = async (urlPath: string, init: RawInit = {}) => {
    const [fromNginx, fromNode] = await Promise.all([
      get(nginx.httpsUrl, urlPath, init),
      get(node.baseUrl, urlPath, init),
    ]);
    expect(fromNginx, `${init.method ?? 'GET'} ${urlPath} ${JSON.stringify(init.headers ?? {})}`).toEqual(fromNode);
    return fromNginx;
  };
  const servedPaths = () => [...table.paths.keys()].filter((urlPath) => !isServicePath(urlPath)).sort();

  it('answers every path of the build (pages, Markdown twins, documents, assets) as Node does, in every encoding', async () => {
    const paths = servedPaths();
    expect(paths).toEqual(expect.arrayContaining(['/', '/index.md', '/llms.txt', '/.well-known/api-catalog']));
    for (const urlPath of paths) {
      const plain = await expectSame(urlPath);
      expect(plain.status, urlPath).toBe(200);
      expect(plain.headers['content-encoding'], urlPath).toBeNull();
      await expectSame(urlPath, { headers: { 'accept-encoding': 'gzip' } });
      await expectSame(urlPath, { headers: { 'accept-encoding': 'br, gzip' } });
    }
  });

  it('types the extensionless .well-known documents and the Markdown and YAML files by the project’s table', async () => {
    const typed = {
      '/.well-known/api-catalog': 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
      '/.well-known/oauth-authorization-server': 'application/json; charset=utf-8',
      '/.well-known/oauth-protected-resource': 'application/json; charset=utf-8',
      '/.well-known/mcp/server-card': 'application/mcp-server-card+json',
      '/.well-known/ai-catalog.json': 'application/ai-catalog+json',
      '/openapi.yaml': 'application/yaml; charset=utf-8',
      '/index.md': 'text/markdown; charset=utf-8',
    };
    for (const [urlPath, type] of Object.entries(typed)) {
      const answer = await expectSame(urlPath);
      expect([answer.status, answer.headers['content-type']], urlPath).toEqual([200, type]);
    }
  });

  it('sends the precompressed files of the build, brotli first, with Vary: Accept-Encoding', async () => {
    const page = '/projects/leakhound';
    const file = path.join(CLIENT_DIR, 'projects/leakhound.html');
    const gzip = await expectSame(page, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body.equals(readFileSync(`${file}.gz`))).toBe(true);
    expect(gzip.headers.vary).toBe('Accept-Encoding, Accept');
    const identity = await expectSame(page, { headers: { 'accept-encoding': 'identity' } });
    expect(identity.body.equals(readFileSync(file))).toBe(true);
    if (HAS_BROTLI_STATIC) {
      const br = await expectSame(page, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.body.equals(readFileSync(`${file}.br`))).toBe(true);
    }
  });

  it('negotiates Markdown on a page’s URL by Accept, as Node does', async () => {
    const accepts = [
      'text/markdown',
      'text/markdown, text/html;q=0.9',
      'text/markdown;q=0.5',
      'text/html, text/markdown',
      'text/html;q=0.9, text/markdown',
      'text/html, application/xhtml+xml, */*;q=0.8',
      'text/markdown;q=0, text/html',
      '*/*',
    ];
    for (const accept of accepts)
      for (const urlPath of ['/', '/projects/leakhound', '/llms.txt'])
        await expectSame(urlPath, { headers: { accept, 'accept-encoding': 'br, gzip' } });
    const markdown = await expectSame('/projects/leakhound', { headers: { accept: 'text/markdown' } });
    expect(markdown.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(markdown.body.equals(readFileSync(path.join(CLIENT_DIR, 'projects/leakhound.md')))).toBe(true);
    // At the page's URL the Markdown is kept out of shared caches; at its own URL, and the HTML, cached as before.
    expect(markdown.headers['cache-control']).toBe(NEGOTIATED_MARKDOWN_CACHE);
    const twin = await expectSame('/projects/leakhound.md', { headers: { accept: 'text/markdown' } });
    expect(twin.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=3600');
    const html = await expectSame('/projects/leakhound', { headers: { accept: 'text/html' } });
    expect(html.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    // Revalidated with the twin's tag (each server's own: nginx makes its tags from mtime and size),
    // only the Markdown matches: its 304 repeats its caching; the HTML is sent whole.
    for (const base of [nginx.httpsUrl, node.baseUrl]) {
      const etag = (await rawRequest(`${base}/projects/leakhound.md`, {}, nginx.ca)).headers.get('etag')!;
      for (const accept of ['text/markdown', 'text/html']) {
        const revalidated = await get(base, '/projects/leakhound', { headers: { accept, 'if-none-match': etag } });
        expect([revalidated.status, revalidated.headers['cache-control']], `${base} ${accept}`).toEqual(
          accept === 'text/markdown' ? [304, NEGOTIATED_MARKDOWN_CACHE] : [200, 'public, max-age=0, must-revalidate'],
        );
      }
    }
    // Every page with a twin.
    for (const page of table.twins.keys())
      if (!isServicePath(page)) await expectSame(page, { headers: { accept: 'text/markdown' } });
  });

  it('answers a missing path with the 404 page, or its Markdown twin, and serves nothing but the table’s paths', async () => {
    const missing = [
      '/no-such-page',
      '/no-such-page.md',
      '/404.html',
      '/404.md',
      '/index.html',
      '/projects/leakhound.html',
      '/index.html.gz',
      '/llms.txt.br',
      '/.well-known/oauth-protected-resource/index.json',
      // Paths are exact in case, with nginx's case-blind maps too.
      '/LLMS.TXT',
      '/Projects/leakhound',
      '/Agents.md',
    ];
    for (const urlPath of missing) {
      const answer = await expectSame(urlPath);
      expect(answer.status, urlPath).toBe(404);
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    const html = await expectSame('/no-such-page');
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body.equals(readFileSync(path.join(CLIENT_DIR, '404.html')))).toBe(true);
    const markdown = await expectSame('/no-such-page', { headers: { accept: 'text/markdown' } });
    expect(markdown.headers['content-type']).toBe('text/markdown; charset=utf-8');
    await expectSame('/no-such-page.md', { headers: { 'accept-encoding': 'br, gzip' } });
  });

  it('redirects a served path asked with a trailing slash to the path without it, query kept, as Node does', async () => {
    for (const urlPath of ['/projects/leakhound/', '/llms.txt/?x=1', '/contact/', '/developers//']) {
      const [fromNginx, fromNode] = await Promise.all([
        rawRequest(`${nginx.httpsUrl}${urlPath}`, {}, nginx.ca),
        rawRequest(`${node.baseUrl}${urlPath}`, {}, nginx.ca),
      ]);
      const seen = (answer: typeof fromNginx) => [answer.status, answer.headers.get('location')];
      expect(seen(fromNginx), urlPath).toEqual(seen(fromNode));
      expect(fromNginx.status, urlPath).toBe(301);
    }
    expect((await expectSame('/no-such-page/')).status).toBe(404);
    // Only GET and HEAD are redirected: to any other method the path is missing, from both.
    const [posted, postedToNode] = await Promise.all([
      rawRequest(`${nginx.httpsUrl}/llms.txt/`, { method: 'POST' }, nginx.ca),
      rawRequest(`${node.baseUrl}/llms.txt/`, { method: 'POST' }, nginx.ca),
    ]);
    expect([posted.status, postedToNode.status]).toEqual([404, 404]);
  });

  it('answers HEAD, revalidates with its ETag, and answers the server cards’ CORS preflights as Node does', async () => {
    const head = await expectSame('/llms.txt', { method: 'HEAD' });
    expect([head.status, head.body.length]).toEqual([200, 0]);

    const fetchNginx = clientFetch(nginx.ca);
    const first = await fetchNginx(`${nginx.httpsUrl}/llms.txt`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"/);
    const again = await fetchNginx(`${nginx.httpsUrl}/llms.txt`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=3600');

    const preflight = {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'GET' },
    };
    for (const card of table.paths.keys())
      if (table.paths.get(card)!.headers['access-control-allow-methods'] !== undefined) {
        const answer = await expectSame(card, preflight);
        expect(answer.status, card).toBe(204);
      }
  });

  it.skipIf(!HAS_DEBIAN_NGINX_CONF)(
    'passes `nginx -t` inside Debian’s own nginx.conf, as docs/deploy-vps.md installs it',
    async () => {
      const report = await checkInDebianConfig();
      expect(report).toContain('syntax is ok');
      expect(report).toContain('test is successful');
    },
  );

  it('has no service behind it: a dynamic path gets 502, and the build wrote the same site', async () => {
    const api = await clientFetch(nginx.ca)(`${nginx.httpsUrl}/api/v1/projects`);
    expect(api.status).toBe(502);
    expect(readFileSync(path.join(DIST, NGINX_SITE_FILE), 'utf8')).toBe(nginxSiteForBuild(DIST));
  });
});
