import autocannon, { type Request as CannonRequest } from 'autocannon';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { RAISED_QUOTAS_ENV, SERVER_ENTRY, startNode, WORK_DIR } from './processes.ts';
import { MCP_GET_PROJECT, MCP_HEADERS } from './scenarios.ts';

/**
 * `npm run load`: two bounded runs against the production server.
 *
 * 1. Mixed traffic for LOAD_SECONDS: reads, search, sandbox contact writes with distinct keys and
 *    MCP tool calls, with quotas raised so that every answer should be a 2xx. Reports req/s, p99,
 *    any other status or error, and peak RSS.
 * 2. A flood of LOAD_FLOOD_IPS distinct client IPs (TRUST_PROXY=1, one X-Forwarded-For each) at
 *    the default quotas: RSS must stay under the documented ceiling (the limiter's LRU is bounded
 *    by RATE_LIMIT_MAX_CLIENTS), and afterwards one client still gets exactly its read quota.
 */
const SECONDS = Number(process.env.LOAD_SECONDS ?? 20);
const FLOOD_IPS = Number(process.env.LOAD_FLOOD_IPS ?? 1_000_000);
/** The documented ceiling for the flood (docs/testing.md, "Reliability"). */
const FLOOD_RSS_CEILING_MIB = 400;
const JSON_HEADERS = { 'content-type': 'application/json' };

function withKey(request: CannonRequest): CannonRequest {
  return { ...request, headers: { ...request.headers, 'idempotency-key': randomUUID() } };
}

const MIXED: CannonRequest[] = [
  { method: 'GET', path: '/api/v1/projects?limit=10' },
  { method: 'GET', path: '/api/v1/projects/leakhound' },
  { method: 'GET', path: '/api/search?q=rust' },
  { method: 'GET', path: '/projects/leakhound' },
  {
    method: 'POST',
    path: '/api/v1/contact?sandbox=true',
    headers: JSON_HEADERS,
    body: JSON.stringify({ name: 'Load Test', email: 'load@example.com', message: 'A message from npm run load.' }),
    setupRequest: withKey,
  },
  {
    method: 'POST',
    path: '/mcp',
    headers: MCP_HEADERS,
    body: MCP_GET_PROJECT,
  },
];

async function mixedTraffic(): Promise<boolean> {
  const server = await startNode('load-server', [SERVER_ENTRY], {
    ...RAISED_QUOTAS_ENV,
    PORT: '0',
    DATA_DIR: path.join(WORK_DIR, 'mixed'),
    READ_RATE_LIMIT: '100000000/60',
    CONTACT_RATE_LIMIT: '100000000/60',
  });
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections: 50,
    duration: SECONDS,
    requests: MIXED,
  });
  const statuses = statusCounts(result);
  const peak = server.peakRssMiB();
  server.child.kill('SIGTERM');
  const unexpected =
    [...statuses].filter(([status]) => status >= 300).reduce((sum, [, count]) => sum + count, 0) +
    result.errors +
    result.timeouts;
  console.log(
    `Mixed traffic, ${SECONDS} s, 50 connections: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
  );
  console.log(
    `  statuses ${JSON.stringify(Object.fromEntries(statuses))}, errors ${result.errors}, timeouts ${result.timeouts}, peak RSS ${peak} MiB`,
  );
  return unexpected === 0;
}

function statusCounts(result: autocannon.Result): Map<number, number> {
  return new Map(
    Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [Number(status), count ?? 0]),
  );
}

/** The n-th IPv4 address of 10.0.0.0/8 and beyond, so every request has its own client. */
function ipOf(n: number): string {
  return `${10 + ((n >>> 24) & 0xff)}.${(n >>> 16) & 0xff}.${(n >>> 8) & 0xff}.${n & 0xff}`;
}

async function ipFlood(): Promise<boolean> {
  const server = await startNode('flood-server', [SERVER_ENTRY], {
    ...RAISED_QUOTAS_ENV,
    PORT: '0',
    DATA_DIR: path.join(WORK_DIR, 'flood'),
    TRUST_PROXY: '1',
    ACCESS_LOG: 'false',
  });
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections: 50,
    amount: FLOOD_IPS,
    timeout: 30,
    requests: [
      {
        method: 'GET',
        path: '/api/v1/projects/leakhound',
        setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-forwarded-for': ipOf(next++) } }),
      },
    ],
  });
  const statuses = statusCounts(result);
  const peak = server.peakRssMiB();

  // The quota still holds for a client after the flood: exactly READ_RATE_LIMIT's count, then 429.
  const base = `http://127.0.0.1:${server.port}/api/v1/projects/leakhound`;
  let accepted = 0;
  let refused = 0;
  for (let i = 0; i < 121; i++) {
    const response = await fetch(base, { headers: { 'x-forwarded-for': '192.0.2.1' } });
    await response.arrayBuffer();
    if (response.status === 200) accepted++;
    if (response.status === 429) refused++;
  }
  server.child.kill('SIGTERM');
  console.log(
    `IP flood: ${result.requests.total} requests from ${next} distinct IPs in ${result.duration.toFixed(0)} s (${Math.round(result.requests.average)} req/s), statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  console.log(
    `  peak RSS ${peak} MiB (ceiling ${FLOOD_RSS_CEILING_MIB} MiB); afterwards one client got ${accepted} reads and ${refused} refusals (quota 120/60)`,
  );
  return (
    peak < FLOOD_RSS_CEILING_MIB &&
    accepted === 120 &&
    refused === 1 &&
    result.errors === 0 &&
    [...statuses.keys()].every((status) => status === 200)
  );
}

const mixedOk = await mixedTraffic();
const floodOk = await ipFlood();
if (!mixedOk || !floodOk) {
  console.log('FAILED: see the lines above.');
  process.exitCode = 1;
}
