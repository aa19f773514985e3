import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createApi, type Api } from '../../functions/app/app.ts';
import { loadConfig, type Config } from '../../functions/config/env.ts';
import type { DocPage } from '../../functions/site/doc-page.ts';
import { isServicePath, serviceHandle } from '../../functions/app/handle.ts';
import { payloadTooLarge } from '../../functions/http/api-error.ts';
import { clientIpOf } from '../../functions/http/client-ip.ts';
import { answeredId, requestIdsFor } from '../../functions/http/request-id.ts';
import { securityHeaders } from '../../functions/http/security-headers.ts';
import { headerValue, type ApiRequest, type ApiResponse } from '../../functions/http/types.ts';
import { logError } from '../../functions/log/log.ts';
import type { ProjectSource } from '../../functions/projects/catalog.ts';
import { mediaTypeFor } from '../../functions/hosts/static/media-types.ts';
import { appViewFile, pageTemplateFile } from '../../functions/hosts/static/build-output.ts';
import type { AppViewName } from '../../functions/mcp/app-views.ts';
import { answerHeaderList, lastResortAnswer } from '../../functions/hosts/node/request-listener.ts';
import { engineEnv } from './engines.ts';
import { freshDataDir, ROOT } from './server.ts';

/**
 * The api tier: the production router, the contact form, the search page and both MCP servers,
 * wired as `functions/hosts/node/main.ts` wires them, called in process on a fresh data directory
 * with real SQLite (or PostgreSQL and Redis in the api-shared project, see ./engines.ts). No port, no child process: a request is an ApiRequest built the way the MCP
 * caller builds one (functions/mcp/api-caller.ts), and the answer gets the headers the node
 * listener adds (security headers, X-Request-Id, Content-Length, Connection: close on 413).
 *
 * Static files (pages, documents) are answered only with the built file's bytes and media type,
 * so that a test can compare an API or MCP answer with the page it mirrors; their caching
 * headers, compression, redirects and 404 page are the system tier's (the real server).
 */

const DIST = path.join(ROOT, 'dist');
const CLIENT = path.join(DIST, 'client');

interface Build {
  projects: ProjectSource[];
  docs: DocPage[];
  searchIndex: string;
  contactTemplate: string;
  searchTemplate: string;
}

let build: Build | undefined;

/** The build the production server loads (`npm run build` must have run). */
function loadBuild(): Build {
  build ??= {
    projects: (JSON.parse(readFileSync(path.join(CLIENT, 'portfolio.json'), 'utf8')) as { projects: ProjectSource[] })
      .projects,
    docs: (JSON.parse(readFileSync(path.join(CLIENT, 'docs.json'), 'utf8')) as { docs: DocPage[] }).docs,
    searchIndex: readFileSync(path.join(CLIENT, 'search-index.json'), 'utf8'),
    contactTemplate: readFileSync(pageTemplateFile(DIST, '/contact'), 'utf8'),
    searchTemplate: readFileSync(pageTemplateFile(DIST, '/search'), 'utf8'),
  };
  return build;
}

/** A request as a test sends it; `path` may carry a query string. */
interface ApiCall {
  method?: string;
  path: string;
  query?: URLSearchParams | Record<string, string>;
  headers?: Record<string, string>;
  body?: string | Buffer | null;
  /** The TCP peer address the server would see; X-Forwarded-For is honoured per TRUST_PROXY. */
  remoteAddress?: string;
}

interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** An API in process; `baseUrl` is an origin that only the fetch below answers (see installFetch). */
export interface InProcessApi {
  baseUrl: string;
  dataDir: string;
  config: Config;
  api: Api;
  request(call: ApiCall): Promise<ApiAnswer>;
  /** `fetch` for this API: a web Response built from the in-process answer. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NO_BODY = new Set([204, 205, 304]);

let counter = 0;

/**
 * Creates the API as the production server does: `loadConfig` over the test's environment
 * (DATA_DIR a fresh directory unless given), the build's projects, search index and docs.
 */
export async function startApi(env: Record<string, string> = {}, dataDir = freshDataDir()): Promise<InProcessApi> {
  const { projects, docs, searchIndex, contactTemplate, searchTemplate } = loadBuild();
  const baseUrl = `http://api-${process.pid}-${++counter}.in-process.test`;
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // The MCP servers answer only for names they are given: this API is reached by its own.
    MCP_ALLOWED_HOSTS: new URL(baseUrl).hostname,
    ...(await engineEnv(dataDir)),
    ...env,
  });
  const api = await createApi(config, projects, searchIndex);
  const quotasReady = api.services.quotas.ready();
  // The production service's one entry, over the built pages.
  const handle = serviceHandle(
    api,
    docs,
    (page) => (page === '/contact' ? contactTemplate : searchTemplate),
    (name: AppViewName) => readFileSync(appViewFile(DIST, name), 'utf8'),
  );
  const commonList = Object.entries(securityHeaders(config)).flat();

  async function request(call: ApiCall): Promise<ApiAnswer> {
    const method = (call.method ?? 'GET').toUpperCase();
    const question = call.path.indexOf('?');
    const pathOnly = question === -1 ? call.path : call.path.slice(0, question);
    const query = new URLSearchParams(question === -1 ? '' : call.path.slice(question + 1));
    for (const [name, value] of new URLSearchParams(call.query)) query.append(name, value);
    const headers: Record<string, string> = { host: new URL(baseUrl).host };
    for (const [name, value] of Object.entries(call.headers ?? {})) headers[name.toLowerCase()] = value;
    const body = call.body === undefined || call.body === null ? null : Buffer.from(call.body);
    if (body !== null) headers['content-length'] ??= String(body.length);

    if (!isServicePath(pathOnly)) return builtFile(method, pathOnly);
    const ids = requestIdsFor(headers['x-request-id']);
    const requestId = answeredId(ids);
    const apiRequest: ApiRequest = {
      method,
      path: pathOnly,
      query,
      search: query.toString(),
      headers,
      clientIp: clientIpOf(call.remoteAddress ?? '127.0.0.1', headers['x-forwarded-for'], config.trustProxy),
      requestId,
      readBody: (maxBytes) => {
        // Like the node reader: a declared length over the limit is refused before reading.
        const declared = Number(headers['content-length']);
        if ((Number.isFinite(declared) && declared > maxBytes) || (body?.length ?? 0) > maxBytes)
          return Promise.reject(payloadTooLarge(maxBytes));
        return Promise.resolve(body ?? Buffer.alloc(0));
      },
    };

    let response: ApiResponse;
    try {
      response = await handle(apiRequest);
    } catch (error) {
      // The node listener's last resort (write-answer.ts failSafe): logged, and a bare 500.
      logError(ids.requestId, error);
      response = lastResortAnswer(requestId);
    }
    const list = answerHeaderList(response, commonList, requestId, headerValue(apiRequest, 'content-length'));
    const answerHeaders: Record<string, string> = {};
    for (let i = 0; i < list.length; i += 2) answerHeaders[list[i]!] = list[i + 1]!;
    const bytes = method === 'HEAD' || response.body === null ? Buffer.alloc(0) : Buffer.from(response.body);
    return { status: response.status, headers: answerHeaders, body: bytes };
  }

  async function inProcessFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const webRequest = new Request(input, init);
    const url = new URL(webRequest.url);
    const headers: Record<string, string> = {};
    webRequest.headers.forEach((value, name) => (headers[name] = value));
    const raw = webRequest.body === null ? null : Buffer.from(await webRequest.arrayBuffer());
    const answer = await request({ method: webRequest.method, path: url.pathname + url.search, headers, body: raw });
    const location = answer.headers.location;
    if (REDIRECTS.has(answer.status) && location !== undefined && (init?.redirect ?? 'follow') === 'follow') {
      const next = new URL(location, url);
      const keepsMethod = answer.status === 307 || answer.status === 308;
      return globalThis.fetch(next, keepsMethod ? { ...init, headers } : { headers: init?.headers });
    }
    const status = answer.status;
    return new Response(NO_BODY.has(status) || webRequest.method === 'HEAD' ? null : new Uint8Array(answer.body), {
      status,
      headers: answer.headers,
    });
  }

  registry().set(new URL(baseUrl).origin, inProcessFetch);
  installFetch();
  return quotasReady.then(() => ({
    baseUrl,
    dataDir,
    config,
    api,
    request,
    fetch: inProcessFetch,
    stop() {
      registry().delete(new URL(baseUrl).origin);
      return api.services.close();
    },
  }));
}

/** A built file's bytes at its clean URL (`/x` is x.html), or a bare 404; GET and HEAD only. */
function builtFile(method: string, urlPath: string): ApiAnswer {
  if (method !== 'GET' && method !== 'HEAD')
    throw new Error(`${method} ${urlPath}: the api tier serves static files for reading only`);
  const relative = decodeURIComponent(urlPath === '/' ? '/index.html' : urlPath).replace(/^\/+/, '');
  const candidates = [relative, `${relative}.html`].map((name) => path.join(CLIENT, name));
  const file = candidates.find(
    (candidate) => candidate.startsWith(CLIENT) && existsSync(candidate) && statSync(candidate).isFile(),
  );
  if (file === undefined)
    return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from('Not Found\n') };
  const body = readFileSync(file);
  return {
    status: 200,
    headers: { 'content-type': mediaTypeFor(file), 'content-length': String(body.length) },
    body: method === 'HEAD' ? Buffer.alloc(0) : body,
  };
}

type Fetch = typeof globalThis.fetch;
const REGISTRY = Symbol.for('portfolio-tests.in-process-apis');
const ORIGINAL = Symbol.for('portfolio-tests.original-fetch');
type Holder = {
  [REGISTRY]?: Map<string, (input: string | URL | Request, init?: RequestInit) => Promise<Response>>;
  [ORIGINAL]?: Fetch;
};

function registry() {
  const holder = globalThis as Holder;
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/**
 * Routes the global fetch for an in-process API's origin to it, so that helpers and clients
 * written against URLs (postContact, the MCP SDK client, openapi-fetch) work unchanged; every
 * other URL goes to the real fetch.
 */
function installFetch(): void {
  const holder = globalThis as Holder;
  if (holder[ORIGINAL] !== undefined) return;
  const original = globalThis.fetch;
  holder[ORIGINAL] = original;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    let origin: string | undefined;
    try {
      origin = new URL(url).origin;
    } catch {
      origin = undefined;
    }
    const target = origin === undefined ? undefined : registry().get(origin);
    return target === undefined ? original(input, init) : target(input, init);
  }) as Fetch;
}
