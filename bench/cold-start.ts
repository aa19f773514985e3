import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { freePort } from '../tests/support/free-port.ts';
import path from 'node:path';
import { ROOT, SERVER_ENTRY, WORK_DIR } from './processes.ts';

/** One cold start: milliseconds from spawn to the first 200 of each path, and RSS once idle. */
export interface ColdStart {
  firstPageMs: number;
  firstApiMs: number;
  idleRssMiB: number;
}

/** How long the server sits idle before its RSS is read. */
const IDLE_MS = 2000;

function status(port: number, urlPath: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: urlPath, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function untilOk(port: number, urlPath: string, started: number, deadline: number): Promise<number> {
  while (performance.now() < deadline) {
    if ((await status(port, urlPath)) === 200) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`cold start: ${urlPath} did not answer 200 in time`);
}

/**
 * Starts the production entry as `npm run serve` does, on a fresh data directory (and `env`, such
 * as the shared engines' URLs) and a free port of its own, and asks for `/` from the moment of
 * spawn until it answers 200, then `/api/v1/projects`.
 */
export async function measureColdStart(env: Record<string, string> = {}): Promise<ColdStart> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    // The port and host last: this function chose them and polls them, whatever `env` says
    // (the bench's server settings carry PORT=0 for servers that report their port).
    env: {
      ...process.env,
      ACCESS_LOG: 'false',
      DATA_DIR: mkdtempSync(path.join(WORK_DIR, 'cold-')),
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const deadline = started + 60_000;
    const firstPageMs = await untilOk(port, '/', started, deadline);
    const firstApiMs = await untilOk(port, '/api/v1/projects', started, deadline);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
    return { firstPageMs, firstApiMs, idleRssMiB: Math.round(kib / 102.4) / 10 };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
