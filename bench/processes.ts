import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const WORK_DIR = mkdtempSync(path.join(tmpdir(), 'portfolio-bench-'));
// A run writes tens of MiB of data and logs here: kept only when it failed, to be read
// (or with BENCH_KEEP_WORK=1).
process.on('exit', (code) => {
  if (code === 0 && process.env.BENCH_KEEP_WORK !== '1') rmSync(WORK_DIR, { recursive: true, force: true });
});
/** The production entry as the build compiles it (`npm run serve`). */
export const SERVER_ENTRY = 'dist/server/portfolio.mjs';
/**
 * The bench raises quotas so that it measures served responses, which the build did not publish:
 * the server is told to serve the build anyway (every request is still counted).
 */
export const RAISED_QUOTAS_ENV = { ALLOW_BUILD_MISMATCH: 'true' };

/** The benchmarked server's settings: quotas raised so a run measures served responses; every request is still counted. */
export const BENCH_SERVER_ENV = {
  ...RAISED_QUOTAS_ENV,
  PORT: '0',
  READ_RATE_LIMIT: '100000000/60',
  CONTACT_RATE_LIMIT: '100000000/60',
};

export interface Started {
  child: ChildProcess;
  port: number;
  /** Resident set size of the process now, in MiB (from /proc). */
  rssMiB(): number;
  /** The highest resident set size the process has had, in MiB (VmHWM). */
  peakRssMiB(): number;
}

/**
 * Starts a node script (a `.ts` one through tsx, compiled JavaScript as it is) with its stdout written to a file (so the access log costs what it costs
 * in production, without this process reading it) and waits for the JSON line carrying `port`.
 */
export async function startNode(name: string, args: string[], env: Record<string, string> = {}): Promise<Started> {
  const logFile = path.join(WORK_DIR, `${name}.log`);
  const nodeArgs = args[0]?.endsWith('.ts') ? ['--import', 'tsx', ...args] : args;
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', openSync(logFile, 'w'), 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const line of readFileSync(logFile, 'utf8').split('\n')) {
      if (!line.includes('"port"')) continue;
      const { port } = JSON.parse(line) as { port: number };
      return {
        child,
        port,
        rssMiB: () => memoryMiB(child.pid!, 'VmRSS'),
        peakRssMiB: () => memoryMiB(child.pid!, 'VmHWM'),
      };
    }
    if (child.exitCode !== null) break;
  }
  throw new Error(`${name} did not start; see ${logFile}`);
}

function memoryMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return Math.round(kib / 102.4) / 10;
}
