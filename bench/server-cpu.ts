import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { contactRequest, readRequest } from './function-instances.ts';
import { processCpuMs } from './process-cpu.ts';
import { SERVER_ENTRY, WORK_DIR } from './processes.ts';
import { firstLine, stopGroup } from './spawned.ts';

/** How long a server that just started is left alone before its first request, so its start-up work is not counted. */
const SETTLE_MS = 500;

/**
 * The CPU time the Node server (a fresh process with `env`, its start-up done) spends on its
 * first GET /api/v1/projects, in milliseconds (/proc: the server's own CPU, not the client's).
 */
export async function nodeServerFirstRequestCpuMs(env: Record<string, string>): Promise<number> {
  const { child, line } = firstLine(
    [process.execPath, SERVER_ENTRY],
    { ...env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: mkdtempSync(path.join(WORK_DIR, 'first-')) },
    'port',
  );
  try {
    const { value } = await line;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const before = processCpuMs(child.pid!);
    const response = await fetch(readRequest(`http://127.0.0.1:${value.port}`));
    await response.arrayBuffer();
    const cpuMs = processCpuMs(child.pid!) - before;
    if (response.status !== 200) throw new Error(`the Node server's first read answered ${response.status}`);
    return cpuMs;
  } finally {
    await stopGroup(child);
  }
}

/** Latency of each request (ms) and the server's CPU per request (ms), for reads and contact posts. */
export interface WarmSamples {
  read: number[];
  write: number[];
  readCpuMs: number;
  writeCpuMs: number;
}

/**
 * `warmup` requests of each kind, then `requests` sequential reads (GET /api/v1/projects), then
 * as many contact posts, to the server at `baseUrl`; the CPU time of process `pid` (the server,
 * never this client) over each phase, divided by its requests.
 */
export async function warmSamples(
  baseUrl: string,
  pid: number,
  requests: number,
  warmup: number,
): Promise<WarmSamples> {
  const call = async (request: Request) => {
    const started = performance.now();
    const response = await fetch(request);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${request.method} ${request.url} answered ${response.status}`);
    return performance.now() - started;
  };
  const read = () => call(readRequest(baseUrl));
  const write = () => call(contactRequest(`A benchmark message ${crypto.randomUUID()}`, baseUrl));
  for (let i = 0; i < warmup; i++) {
    await read();
    await write();
  }
  const phase = async (one: () => Promise<number>) => {
    const latencies: number[] = [];
    const before = processCpuMs(pid);
    for (let i = 0; i < requests; i++) latencies.push(await one());
    return { latencies, cpuMs: (processCpuMs(pid) - before) / requests };
  };
  const reads = await phase(read);
  const writes = await phase(write);
  return { read: reads.latencies, write: writes.latencies, readCpuMs: reads.cpuMs, writeCpuMs: writes.cpuMs };
}
