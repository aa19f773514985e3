/**
 * The CPU cost of the most expensive requests an anonymous client can send, measured on the real
 * server: for every API route, page endpoint and MCP tool, the worst shapes a client controls (as
 * many unknown query parameters as a request line holds, a body or a tool call filled to its size
 * limit with unknown names, or nested as deep as it allows), plus a few known hard cases. Each is
 * sent REPEAT times one after another; the server's CPU time for each request (every thread of the
 * process, from /proc/<pid>/task/<tid>/schedstat, in nanoseconds) gives the median and the worst.
 * `units` is what the request quota was charged (from RateLimit-Remaining), so `ms/unit` is the
 * cost of one unit of quota. Quotas are raised so the work is done rather than refused.
 *
 *   npm run bench:abuse               (ABUSE_REPEAT=<n> to change the repeat, default 15)
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DOCS_TOOLS } from '../functions/mcp/docs-tools.ts';
import { PRODUCT_TOOLS } from '../functions/mcp/product-tools.ts';
import { MCP_SERVERS } from '../functions/mcp/server-identity.ts';
import { OPERATIONS } from '../functions/operations/operations.ts';
import { RAISED_QUOTAS_ENV, SERVER_ENTRY, startNode, WORK_DIR } from './processes.ts';

const REPEAT = Number(process.env.ABUSE_REPEAT ?? 15);
/** Query bytes that fit in a request line under node's 16 KiB header limit, with the other headers. */
const QUERY_BUDGET = 15_000;
/** An MCP POST holds at most 64 KiB; the envelope of one tools/call takes the rest. */
const MCP_ARGUMENT_BUDGET = 64 * 1024 - 200;
/** The body limit of each POST operation (the handlers' own constants). */
const BODY_BUDGET: Record<string, number> = {
  '/api/v1/contact': 16 * 1024,
  '/api/v1/batch': 64 * 1024,
  '/api/v1/jobs': 16 * 1024,
  '/api/v1/keys': 4 * 1024,
  '/oauth/token': 4 * 1024,
  '/contact': 16 * 1024,
};
/** A filler for path parameters: well formed, so the handler runs past its own checks. */
const PATH_FILLER: Record<string, string> = { slug: 'no-such-project', jobId: 'job_nosuchjob' };

interface Probe {
  name: string;
  path: string;
  method: string;
  headers?: () => Record<string, string>;
  body?: string;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };
const MCP_HEADERS = { ...JSON_HEADERS, accept: 'application/json, text/event-stream' };

/** Distinct short names, shortest first (a, b, ..., 9, aa, ab, ...). */
function* names(): Generator<string> {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  for (let length = 1; ; length++) {
    const total = alphabet.length ** length;
    for (let n = 0; n < total; n++) {
      let name = '';
      for (let rest = n, i = 0; i < length; i++, rest = Math.floor(rest / alphabet.length))
        name = alphabet[rest % alphabet.length] + name;
      yield name;
    }
  }
}

/** As many distinct names as fit in `budget` characters, each taking `overhead` more. */
function namesWithin(budget: number, overhead: number): string[] {
  const chosen: string[] = [];
  let used = 0;
  for (const name of names()) {
    if (used + name.length + overhead > budget) break;
    chosen.push(name);
    used += name.length + overhead;
  }
  return chosen;
}

const unknownQuery = (budget = QUERY_BUDGET) => namesWithin(budget, 1).join('&');
const unknownForm = (budget: number) =>
  namesWithin(budget, 2)
    .map((name) => `${name}=`)
    .join('&');
/** A JSON object of unknown members (`"a":0`), `budget` bytes at most with `wrap` around it. */
const wideObject = (budget: number) =>
  Object.fromEntries(namesWithin(budget - 2, 5).map((name) => [name, 0] as const)) as Record<string, number>;
/** Arrays nested as deep as `budget` bytes allow. */
const deepJson = (budget: number) => '['.repeat(Math.floor(budget / 2)) + ']'.repeat(Math.floor(budget / 2));

const contactHeaders = () => ({ ...JSON_HEADERS, 'idempotency-key': randomUUID() });

function routeProbes(): Probe[] {
  const probes: Probe[] = [];
  for (const [operationId, spec] of Object.entries(OPERATIONS)) {
    const filled = spec.path.replace(/\{(\w+)\}/g, (_slot, name: string) => PATH_FILLER[name] ?? 'x');
    const isForm = filled === '/oauth/token';
    const headers = filled === '/api/v1/contact' ? contactHeaders : () => (isForm ? FORM_HEADERS : JSON_HEADERS);
    const emptyBody = spec.method === 'POST' ? (isForm ? '' : '{}') : undefined;
    probes.push({
      name: `${operationId}: unknown query parameters`,
      path: `${filled}?${unknownQuery()}`,
      method: spec.method,
      headers,
      body: emptyBody,
    });
    const budget = BODY_BUDGET[filled];
    if (spec.method !== 'POST' || budget === undefined) continue;
    if (isForm) {
      probes.push({
        name: `${operationId}: form of unknown fields`,
        path: filled,
        method: 'POST',
        headers,
        body: unknownForm(budget),
      });
      continue;
    }
    probes.push(
      {
        name: `${operationId}: body of unknown fields`,
        path: filled,
        method: 'POST',
        headers,
        body: JSON.stringify(wideObject(budget)),
      },
      { name: `${operationId}: deeply nested body`, path: filled, method: 'POST', headers, body: deepJson(budget) },
    );
  }
  return probes;
}

function pageProbes(): Probe[] {
  return [
    { name: 'search page: unknown query parameters', path: `/search?q=ab&${unknownQuery()}`, method: 'GET' },
    { name: 'contact page: unknown query parameters', path: `/contact?${unknownQuery()}`, method: 'GET' },
    {
      name: 'contact form post: form of unknown fields',
      path: '/contact',
      method: 'POST',
      headers: () => FORM_HEADERS,
      body: unknownForm(BODY_BUDGET['/contact']!),
    },
  ];
}

const toolCall = (name: string, args: string, id = 1) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${args}}}`;
const toolCalls = (count: number, name: string, args: unknown) =>
  `[${Array.from({ length: count }, (_, id) => toolCall(name, JSON.stringify(args), id)).join(',')}]`;

function toolProbes(): Probe[] {
  const servers = [
    { path: MCP_SERVERS.product.path, tools: PRODUCT_TOOLS },
    { path: MCP_SERVERS.docs.path, tools: DOCS_TOOLS },
  ];
  const probes: Probe[] = [];
  for (const { path: endpoint, tools } of servers) {
    for (const tool of tools) {
      const budget = MCP_ARGUMENT_BUDGET - tool.name.length;
      const firstArgument = Object.keys(tool.input.shape)[0] ?? 'x';
      probes.push(
        {
          name: `MCP ${tool.name}: unknown arguments`,
          path: endpoint,
          method: 'POST',
          headers: () => MCP_HEADERS,
          body: toolCall(tool.name, JSON.stringify(wideObject(budget))),
        },
        {
          name: `MCP ${tool.name}: deeply nested argument`,
          path: endpoint,
          method: 'POST',
          headers: () => MCP_HEADERS,
          body: toolCall(
            tool.name,
            `{${JSON.stringify(firstArgument)}:${deepJson(budget - firstArgument.length - 4)}}`,
          ),
        },
      );
    }
  }
  return probes;
}

/** Hard cases found before: each was once the costliest request. */
const KNOWN_PROBES: Probe[] = [
  {
    name: 'batch of 21,000 empty operations (63 KB)',
    path: '/api/v1/batch',
    method: 'POST',
    headers: () => JSON_HEADERS,
    body: JSON.stringify({ operations: Array.from({ length: 21_000 }, () => ({})) }),
  },
  {
    name: 'MCP batch of 100 calls to an unknown tool',
    path: '/mcp',
    method: 'POST',
    headers: () => MCP_HEADERS,
    body: toolCalls(100, 'no_such_tool', {}),
  },
  {
    name: 'MCP batch of 10 search_docs calls (the cap)',
    path: '/mcp/docs',
    method: 'POST',
    headers: () => MCP_HEADERS,
    body: toolCalls(10, 'search_docs', { q: 'quota' }),
  },
  { name: 'search with a 200-character query', path: `/api/search?q=${'ab '.repeat(66)}`, method: 'GET' },
];

/** CPU time of every thread of a process so far, in nanoseconds (proc(5), /proc/<pid>/schedstat). */
function cpuNanoseconds(pid: number): number {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return total;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
};

const server = await startNode('abuse-server', [SERVER_ENTRY], {
  ...RAISED_QUOTAS_ENV,
  PORT: '0',
  DATA_DIR: path.join(WORK_DIR, 'abuse-data'),
  READ_RATE_LIMIT: '100000000/3600',
  CONTACT_RATE_LIMIT: '100000000/3600',
  KEYS_RATE_LIMIT: '100000000/3600',
  ACCESS_LOG: 'false',
});
const pid = server.child.pid!;
const rows: string[] = [];
try {
  for (const probe of [...routeProbes(), ...pageProbes(), ...toolProbes(), ...KNOWN_PROBES]) {
    const send = async () => {
      const before = cpuNanoseconds(pid);
      const response = await fetch(`http://127.0.0.1:${server.port}${probe.path}`, {
        method: probe.method,
        headers: probe.headers?.(),
        body: probe.body,
      });
      const bytes = (await response.arrayBuffer()).byteLength;
      const cpuMs = (cpuNanoseconds(pid) - before) / 1e6;
      const remaining = Number(response.headers.get('ratelimit-remaining') ?? Number.NaN);
      return { status: response.status, bytes, cpuMs, remaining };
    };
    const first = await send();
    const cpu: number[] = [];
    const units: number[] = [];
    let remaining = first.remaining;
    for (let i = 0; i < REPEAT; i++) {
      const sample = await send();
      cpu.push(sample.cpuMs);
      if (remaining - sample.remaining >= 0) units.push(remaining - sample.remaining);
      remaining = sample.remaining;
    }
    const charged = units.length === 0 ? 0 : median(units);
    const requestBytes = probe.path.length + (probe.body === undefined ? 0 : Buffer.byteLength(probe.body));
    rows.push(
      `| ${probe.name} | ${requestBytes} | ${first.status} | ${first.bytes} | ${charged} | ${median(cpu).toFixed(2)} | ${Math.max(...cpu).toFixed(2)} | ${charged === 0 ? '-' : (median(cpu) / charged).toFixed(2)} |`,
    );
    process.stderr.write('.');
  }
} finally {
  server.child.kill('SIGTERM');
}
process.stdout.write(
  [
    '',
    `Server CPU per request (all threads, user + system), ${REPEAT} requests each, one at a time.`,
    '',
    '| request | request bytes | status | response bytes | units | CPU ms median | CPU ms max | ms/unit |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n'),
);
