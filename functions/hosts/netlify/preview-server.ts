import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { netlifyFunctionPaths } from '../static/function-routes.ts';
import { mediaTypeFor } from '../static/media-types.ts';
import { netlifyHeadersFor, netlifyRoute, parseNetlifyHeaders, parseNetlifyRedirects } from './netlify-rules.ts';

/** The function's entry as Netlify calls it (./function.ts). */
type NetlifyFunction = (
  request: Request,
  context: { ip: string; waitUntil(promise: Promise<unknown>): void },
) => Promise<Response>;

/** Where `netlify dev` lets one call a scheduled function by hand (Netlify docs, "Scheduled Functions" > "Test locally"). */
export const SCHEDULED_PATH = '/.netlify/functions/scheduled';

/** The largest request body the preview reads; the service refuses far smaller ones itself. */
const MAX_BODY_BYTES = 1024 * 1024;

/** A running preview. */
export interface NetlifyPreview {
  url: string;
  close(): Promise<void>;
}

/** Every file under `dir`, as the URL path Netlify serves it at. */
function filePaths(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filePaths(path.join(dir, entry.name), `${prefix}/${entry.name}`)
      : [`${prefix}/${entry.name}`],
  );
}

/** Whether Netlify sends `urlPath` to the function: its `config.path` list, exact paths and `prefix*` (function-routes.ts). */
function isFunctionPath(urlPath: string): boolean {
  return netlifyFunctionPaths().some((pattern) =>
    pattern.endsWith('*') ? urlPath.startsWith(pattern.slice(0, -1)) : urlPath === pattern,
  );
}

async function readBody(request: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | null> {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large for the preview');
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

async function send(response: ServerResponse, answer: Response, head: boolean): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  answer.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  response.writeHead(answer.status, headers);
  response.end(head ? undefined : Buffer.from(await answer.arrayBuffer()));
}

/**
 * The build as Netlify serves it, on this machine: `dist/client` by its `_headers` and
 * `_redirects` (read as Netlify documents them: netlify-rules.ts), a clean URL answered by its
 * `.html` file and a missing one by `404.html` with 404, and the service's paths sent to the
 * function bundle the build wrote (dist/functions/netlify/portfolio, on the paths of its
 * `config.path`, before any file, as on Netlify), with a client IP and `waitUntil`. The scheduled
 * function runs once per call of SCHEDULED_PATH. The functions read `process.env` when loaded:
 * set it first. Not Netlify itself (its CLI is `netlify dev`), but the same files, rules and entry.
 */
export async function startNetlifyPreview(
  dist: string,
  options: { ip: string; port: number; log?: (line: string) => void },
): Promise<NetlifyPreview> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const client = path.join(dist, 'client');
  const entry = path.join(dist, 'functions/netlify/portfolio/portfolio.mjs');
  if (!existsSync(entry))
    throw new Error(`no Netlify function in ${path.dirname(entry)}: build with DATABASE_URL set (npm run build)`);
  const service = ((await import(pathToFileURL(entry).href)) as { default: NetlifyFunction }).default;
  const scheduledEntry = path.join(dist, 'functions/netlify/scheduled/scheduled.mjs');
  const read = (name: string) =>
    existsSync(path.join(client, name)) ? readFileSync(path.join(client, name), 'utf8') : '';
  const headerRules = parseNetlifyHeaders(read('_headers'));
  const redirects = parseNetlifyRedirects(read('_redirects'));
  const files = new Set(filePaths(client));

  const serveFile = (response: ServerResponse, urlPath: string, file: string, status: number, head: boolean) => {
    const { headers } = netlifyHeadersFor(headerRules, urlPath);
    response.writeHead(status, { 'content-type': mediaTypeFor(file), ...headers });
    response.end(head ? undefined : readFileSync(path.join(client, file)));
  };

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host ?? `${options.ip}:${options.port}`}`);
    const head = request.method === 'HEAD';
    if (url.pathname === SCHEDULED_PATH) {
      const scheduled = ((await import(pathToFileURL(scheduledEntry).href)) as { default: () => Promise<Response> })
        .default;
      await send(response, await scheduled(), head);
      return;
    }
    if (isFunctionPath(url.pathname)) {
      const body = await readBody(request);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
      const pending: Promise<unknown>[] = [];
      const result = await service(new Request(url, { method: request.method ?? 'GET', headers, body }), {
        ip: request.socket.remoteAddress ?? '127.0.0.1',
        waitUntil: (promise) => pending.push(promise),
      });
      await send(response, result, head);
      for (const settled of await Promise.allSettled(pending))
        if (settled.status === 'rejected') log(`waitUntil work failed: ${String(settled.reason)}`);
      return;
    }
    const route = netlifyRoute(redirects, files, decodeURIComponent(url.pathname));
    if ('redirect' in route) {
      response.writeHead(route.status, { location: route.redirect }).end();
      return;
    }
    if ('proxy' in route) {
      response
        .writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
        .end(`the preview does not proxy (${route.proxy})\n`);
      return;
    }
    if (route.file !== undefined) serveFile(response, url.pathname, route.file, 200, head);
    else if (files.has('/404.html')) serveFile(response, url.pathname, '/404.html', 404, head);
    else response.writeHead(404).end();
  };

  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      log(`preview: ${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('preview error (see its log)\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.ip, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    url: `http://${options.ip}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
