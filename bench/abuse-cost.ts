/**
 * The CPU cost of the most expensive requests an anonymous client can send, measured on the real
 * server: each request is sent REPEAT times one after another, and the server's CPU time (user +
 * system, from /proc) is divided by the count. Quotas are raised so the work is done rather than
 * refused; what each request costs against the quota is the API's business, shown in the docs.
 *
 *   npm run bench:abuse
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RAISED_QUOTAS_ENV, SERVER_ENTRY, startNode, WORK_DIR } from './processes.ts';

const REPEAT = 40;
/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface Probe {
  name: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: () => string;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const MCP_HEADERS = { ...JSON_HEADERS, accept: 'application/json, text/event-stream' };
const toolCalls = (count: number, name: string, args: unknown) =>
  JSON.stringify(
    Array.from({ length: count }, (_, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args },
    })),
  );

const PROBES: Probe[] = [
  {
    name: 'batch of 21,000 empty operations (63 KB)',
    path: '/api/v1/batch',
    headers: JSON_HEADERS,
    body: () => JSON.stringify({ operations: Array.from({ length: 21_000 }, () => ({})) }),
  },
  {
    name: 'MCP batch of 100 calls to an unknown tool',
    path: '/mcp',
    headers: MCP_HEADERS,
    body: () => toolCalls(100, 'no_such_tool', {}),
  },
  {
    name: 'MCP batch of 100 search_docs calls',
    path: '/mcp/docs',
    headers: MCP_HEADERS,
    body: () => toolCalls(100, 'search_docs', { query: 'quota' }),
  },
  {
    name: 'MCP batch of 10 search_docs calls (the cap)',
    path: '/mcp/docs',
    headers: MCP_HEADERS,
    body: () => toolCalls(10, 'search_docs', { query: 'quota' }),
  },
  {
    name: 'contact body of 1,500 unknown fields (16 KB)',
    path: '/api/v1/contact',
    headers: { ...JSON_HEADERS, 'idempotency-key': '6f1c2f43-6a6f-4e0b-9a53-0d7e5c1f2a10' },
    body: () => JSON.stringify(Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`f${i}`, 1]))),
  },
  { name: 'search with a 200-character query', path: `/api/search?q=${'ab '.repeat(66)}`, method: 'GET' },
];

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // Fields 14 and 15 of proc(5) (utime, stime); index 11 and 12 once "pid (comm) " is cut off.
  return Number(fields[11]) + Number(fields[12]);
}

const server = await startNode('abuse-server', [SERVER_ENTRY], {
  ...RAISED_QUOTAS_ENV,
  PORT: '0',
  DATA_DIR: path.join(WORK_DIR, 'abuse-data'),
  READ_RATE_LIMIT: '100000000/60',
  CONTACT_RATE_LIMIT: '100000000/60',
  ACCESS_LOG: 'false',
});
const rows: string[] = [];
try {
  for (const probe of PROBES) {
    const body = probe.body?.();
    const send = async () => {
      const response = await fetch(`http://127.0.0.1:${server.port}${probe.path}`, {
        method: probe.method ?? 'POST',
        headers: probe.headers,
        body,
      });
      return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
    };
    const first = await send();
    const before = cpuTicks(server.child.pid!);
    for (let i = 0; i < REPEAT; i++) await send();
    const cpuMs = ((cpuTicks(server.child.pid!) - before) * 1000) / TICKS_PER_SECOND / REPEAT;
    rows.push(
      `| ${probe.name} | ${body === undefined ? 0 : Buffer.byteLength(body)} | ${first.status} | ${first.bytes} | ${cpuMs.toFixed(1)} |`,
    );
  }
} finally {
  server.child.kill('SIGTERM');
}
process.stdout.write(
  [
    '',
    `Server CPU per request (user + system), ${REPEAT} requests each, one at a time.`,
    '',
    '| request | request bytes | status | response bytes | CPU ms |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n'),
);
