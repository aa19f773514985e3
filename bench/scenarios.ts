import type { Request as CannonRequest } from 'autocannon';
import { randomUUID } from 'node:crypto';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { freshQuery } from './search/fresh-queries.ts';

/** One benchmarked request; `requests` builds per-request bodies (distinct keys) when needed. */
export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** The body sent once to capture the response the baseline replays. */
  sampleBody?: string;
  requests?: () => CannonRequest[];
  /** Also measured on the shared engine (PostgreSQL and Redis): what touches a quota or durable state. */
  shared?: boolean;
  /** A built file: also measured through the nginx site, which serves it without the service. */
  built?: boolean;
  /** Requests that make one unit of work (a session): the run also reports the server's CPU per unit. */
  requestsPerSession?: number;
  /** The status every answer should have when it is not a 2xx (the 304 of a revalidation). */
  expectStatus?: number;
  /**
   * What only the running server knows, asked of it before the traffic: a cursor it signed (its
   * key is per deployment), an ETag. Resolved by {@link liveScenario}.
   */
  prepare?: (origin: string) => Promise<Pick<Scenario, 'path' | 'headers'>>;
}

/**
 * The scenario as sent to the server on `port`: `prepare` asks it first. The bare baseline,
 * which answers only tagged requests, has nothing to say; it replays the same bytes whatever
 * the path, so the scenario is sent to it as written.
 */
export async function liveScenario(scenario: Scenario, port: number): Promise<Scenario> {
  if (scenario.prepare === undefined) return scenario;
  try {
    const live = await scenario.prepare(`http://127.0.0.1:${port}`);
    return { ...scenario, path: live.path, headers: { ...scenario.headers, ...live.headers } };
  } catch (error) {
    if (error instanceof NotOurServer) return scenario;
    throw error;
  }
}

class NotOurServer extends Error {}

/** A JSON answer and its ETag from the server under test (the baseline answers untagged requests 404). */
async function getJson(url: string): Promise<{ body: unknown; etag: string }> {
  const response = await fetch(url);
  if (response.status === 404) throw new NotOurServer(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return { body: await response.json(), etag: response.headers.get('etag') ?? '' };
}

/** The second page of the list, reached by the cursor the first page gives (a signed cursor on every request). */
const CURSOR_PAGE_LIMIT = 5;
async function secondPage(origin: string): Promise<Pick<Scenario, 'path'>> {
  const first = await getJson(`${origin}/api/v1/projects?limit=${CURSOR_PAGE_LIMIT}`);
  const cursor = (first.body as { pagination: { nextCursor: string | null } }).pagination.nextCursor;
  if (cursor === null) throw new Error(`the list has no second page at limit=${CURSOR_PAGE_LIMIT}`);
  return { path: `/api/v1/projects?limit=${CURSOR_PAGE_LIMIT}&cursor=${encodeURIComponent(cursor)}` };
}

/** A revalidation: If-None-Match with the ETag the server gave, answered 304. */
async function revalidation(origin: string): Promise<Pick<Scenario, 'path' | 'headers'>> {
  const path = '/api/v1/projects/leakhound';
  const { etag } = await getJson(`${origin}${path}`);
  return { path, headers: { 'if-none-match': etag } };
}

export const CONTACT_BODY = JSON.stringify({
  name: 'Bench Visitor',
  email: 'bench@example.com',
  message: 'A message sent by npm run bench to measure durable writes.',
});

// A stateless call: no initialize first (the server keeps no session), as an agent repeating a tool does.
export const MCP_GET_PROJECT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_project', arguments: { slug: 'leakhound' } },
});
export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
};

/** The 2026-07-28 revision: the version and client capabilities in `_meta`, the method and tool name in headers too. */
const MODERN_VERSION = '2026-07-28';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const MCP_MODERN_GET_PROJECT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'get_project',
    arguments: { slug: 'leakhound' },
    _meta: MODERN_META,
  },
});
const MCP_MODERN_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN_VERSION,
  'mcp-method': 'tools/call',
  'mcp-name': 'get_project',
};

/** A 2025 client's opening (as the SDK's clients send it: no MCP-Protocol-Version before the version is negotiated). */
const MCP_INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'bench', version: '1.0.0' },
  },
});
const MCP_OPENING_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MCP_INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const MCP_TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const MCP_MODERN_TOOLS_LIST = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/list',
  params: { _meta: MODERN_META },
});
const MCP_MODERN_LIST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN_VERSION,
  'mcp-method': 'tools/list',
};

/** The scenario whose every three requests are one 2025 client's whole session for one call. */
const MCP_SESSION_SCENARIO = 'MCP 2025 session: initialize + initialized + tools/call get_project';

export const SEARCH_FRESH_SCENARIO = 'search, a query not seen before';

function searchPath(n: number): string {
  return `/api/search?q=${encodeURIComponent(freshQuery(n))}`;
}

/**
 * The header that names the scenario of a request, so that the bare baseline answers each
 * scenario with its own bytes even where two share a method and path (both MCP eras on /mcp).
 * Every request carries it, to the server and to the baseline alike.
 */
export const SCENARIO_HEADER = 'x-bench-scenario';

const allScenarios: Scenario[] = [
  { name: 'GET /api/v1/projects', method: 'GET', path: '/api/v1/projects', shared: true },
  { name: 'GET /api/v1/projects/{slug}', method: 'GET', path: '/api/v1/projects/leakhound' },
  {
    name: 'GET /api/v1/projects/{slug} with If-None-Match (304)',
    method: 'GET',
    path: '/api/v1/projects/leakhound',
    expectStatus: 304,
    prepare: revalidation,
  },
  {
    name: 'GET /api/v1/projects?cursor= (a page reached by cursor)',
    method: 'GET',
    path: `/api/v1/projects?limit=${CURSOR_PAGE_LIMIT}`,
    prepare: secondPage,
  },
  { name: 'GET /llms.txt (static document)', method: 'GET', path: '/llms.txt', built: true },
  { name: 'GET /portfolio.json (static document)', method: 'GET', path: '/portfolio.json', built: true },
  { name: 'GET /projects/leakhound (static page)', method: 'GET', path: '/projects/leakhound', built: true },
  {
    // Every request the next of 1,600 queries, more than the 1,000 answers the server caches: each
    // is computed afresh (the index is read on the first search, which the sample request makes).
    name: SEARCH_FRESH_SCENARIO,
    method: 'GET',
    path: searchPath(0),
    requests: () => {
      let next = 1;
      return [
        { method: 'GET', path: searchPath(0), setupRequest: (request) => ({ ...request, path: searchPath(next++) }) },
      ];
    },
  },
  {
    // Every request a new Idempotency-Key: each one is a durable write (SQLite, or PostgreSQL).
    name: 'POST /api/v1/contact (distinct keys)',
    shared: true,
    method: 'POST',
    path: '/api/v1/contact',
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    sampleBody: CONTACT_BODY,
    requests: () => [
      {
        method: 'POST',
        path: '/api/v1/contact',
        body: CONTACT_BODY,
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        }),
      },
    ],
  },
  {
    // A 2025-era call without initialize (the server is stateless), the tool calling getProject through the router.
    name: 'MCP tools/call get_project, 2025-11-25',
    method: 'POST',
    path: '/mcp',
    headers: MCP_HEADERS,
    sampleBody: MCP_GET_PROJECT,
    requests: () => [{ method: 'POST', path: '/mcp', body: MCP_GET_PROJECT, headers: MCP_HEADERS }],
  },
  {
    name: 'MCP tools/call get_project, 2026-07-28',
    method: 'POST',
    path: '/mcp',
    headers: MCP_MODERN_HEADERS,
    sampleBody: MCP_MODERN_GET_PROJECT,
    requests: () => [{ method: 'POST', path: '/mcp', body: MCP_MODERN_GET_PROJECT, headers: MCP_MODERN_HEADERS }],
  },
  {
    name: 'MCP initialize, 2025-11-25',
    method: 'POST',
    path: '/mcp',
    headers: MCP_OPENING_HEADERS,
    sampleBody: MCP_INITIALIZE,
    requests: () => [{ method: 'POST', path: '/mcp', body: MCP_INITIALIZE, headers: MCP_OPENING_HEADERS }],
  },
  {
    name: 'MCP tools/list, 2025-11-25',
    method: 'POST',
    path: '/mcp',
    headers: MCP_HEADERS,
    sampleBody: MCP_TOOLS_LIST,
    requests: () => [{ method: 'POST', path: '/mcp', body: MCP_TOOLS_LIST, headers: MCP_HEADERS }],
  },
  {
    name: 'MCP tools/list, 2026-07-28',
    method: 'POST',
    path: '/mcp',
    headers: MCP_MODERN_LIST_HEADERS,
    sampleBody: MCP_MODERN_TOOLS_LIST,
    requests: () => [{ method: 'POST', path: '/mcp', body: MCP_MODERN_TOOLS_LIST, headers: MCP_MODERN_LIST_HEADERS }],
  },
  {
    // Each connection sends the three in turn, as a client that opens, calls once and leaves;
    // the baseline replays the call's answer. Its row's µs CPU/req times three is one session.
    name: MCP_SESSION_SCENARIO,
    requestsPerSession: 3,
    method: 'POST',
    path: '/mcp',
    headers: MCP_HEADERS,
    sampleBody: MCP_GET_PROJECT,
    requests: () => [
      { method: 'POST', path: '/mcp', body: MCP_INITIALIZE, headers: MCP_OPENING_HEADERS },
      { method: 'POST', path: '/mcp', body: MCP_INITIALIZED, headers: MCP_HEADERS },
      { method: 'POST', path: '/mcp', body: MCP_GET_PROJECT, headers: MCP_HEADERS },
    ],
  },
];

/** A scenario whose every request, the sample one included, names it in SCENARIO_HEADER. */
function tagged(scenario: Scenario): Scenario {
  const tag = { [SCENARIO_HEADER]: encodeURIComponent(scenario.name) };
  const requests = scenario.requests;
  return {
    ...scenario,
    headers: { ...scenario.headers, ...tag },
    ...(requests === undefined
      ? {}
      : { requests: () => requests().map((request) => ({ ...request, headers: { ...request.headers, ...tag } })) }),
  };
}

/** BENCH_ONLY=<text> keeps the scenarios whose name contains it (to iterate on one target, or `MCP` for both eras). */
export const scenarios = allScenarios
  .filter((scenario) => scenario.name.includes(process.env.BENCH_ONLY ?? ''))
  .map(tagged);
