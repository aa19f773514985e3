import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { wranglerDev } from '../../functions/hosts/cloudflare/wrangler.ts';
import { functionEngineEnv } from './engines.ts';
import { freePort } from './free-port.ts';
import { freshDataDir, ROOT } from './server.ts';

/** The Worker as `npm run build` bundled it, run by workerd through `wrangler dev` (wrangler.toml). */
export interface WorkerdHost {
  baseUrl: string;
  /** Stands for the deployment: its PostgreSQL and Redis databases (tests/support/engines.ts). */
  dataDir: string;
  /** Every line wrangler and the Worker wrote (the Worker's log lines are JSON after `stdout: `). */
  output: string[];
  /** Runs the Worker's Cron Trigger once (wrangler dev's `--test-scheduled` endpoint). */
  scheduled(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts `wrangler dev` (spawnWranglerDev) on the built Worker (dist/functions/cloudflare-worker.mjs)
 * and static assets (dist/client), with the run's engine and `vars`, its local state in a
 * directory of its own.
 */
export async function startWorkerdHost(vars: Record<string, string> = {}): Promise<WorkerdHost> {
  const dataDir = freshDataDir();
  // The tests' limits differ from the build's, as startServer's do (tests/support/server.ts serverEnv).
  const allVars = {
    ...(await functionEngineEnv(dataDir)),
    ...(Object.keys(vars).length > 0 ? { ALLOW_BUILD_MISMATCH: 'true' } : {}),
    ...vars,
  };
  // A port found free may be taken by another test's process before wrangler or workerd binds it
  // (several Workers start at once in the system-shared tier): a start that says so is tried again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startedWorkerd(dataDir, allVars);
    } catch (error) {
      if (attempt === 3 || !(error instanceof PortTaken)) throw error;
    }
  }
}

/** wrangler dev stopped because a port it chose was in use: a race with another process, worth another try. */
class PortTaken extends Error {}

async function startedWorkerd(dataDir: string, allVars: Record<string, string>): Promise<WorkerdHost> {
  const port = await freePort();
  const stateDir = mkdtempSync(path.join(tmpdir(), 'portfolio-wrangler-'));
  const child = spawnWranglerDev(port, allVars, stateDir, ['ignore', 'pipe', 'pipe']);
  const output: string[] = [];
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await new Promise<void>((resolve, reject) => {
      // Hang-catcher only: workerd starts in seconds, but a busy machine may take long.
      const timer = setTimeout(() => reject(new Error(`wrangler dev did not start:\n${output.join('\n')}`)), 90_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        const said = output.join('\n');
        const Failure = said.includes('Address already in use') ? PortTaken : Error;
        reject(new Failure(`wrangler dev exited with ${code}:\n${said}`));
      });
      for (const stream of [child.stdout!, child.stderr!])
        createInterface({ input: stream }).on('line', (line) => {
          output.push(line);
          if (line.includes('Ready on')) {
            clearTimeout(timer);
            resolve();
          }
        });
    });
  } catch (error) {
    await stopGroup(child, stateDir);
    throw error;
  }
  return {
    baseUrl,
    dataDir,
    output,
    scheduled: async () => (await fetch(`${baseUrl}/__scheduled?cron=*+*+*+*+*`)).status,
    stop: () => stopGroup(child, stateDir),
  };
}

/**
 * `wrangler dev` on the built Worker and static assets, as `npm run preview:cloudflare` runs it
 * (functions/hosts/cloudflare/wrangler.ts: offline, no telemetry), on 127.0.0.1:`port`, with
 * `vars` passed as `--var` and its local state in `stateDir` (`config`: another Worker's
 * wrangler.toml). Its own process group, so that stopping it stops workerd too. The bench
 * (bench/workerd-target.ts) starts it the same way.
 */
export function spawnWranglerDev(
  port: number,
  vars: Record<string, string>,
  stateDir: string,
  stdio: StdioOptions,
  config?: string,
): ChildProcess {
  const run = wranglerDev(ROOT, { ip: '127.0.0.1', port, persistTo: stateDir, vars, config });
  return spawn(run.command, run.args, {
    cwd: ROOT,
    detached: true,
    stdio,
    env: { ...process.env, ...run.env, WRANGLER_LOG_PATH: stateDir, NO_COLOR: '1', CI: '1' },
  });
}

/** wrangler runs workerd as its child: the whole process group goes. */
async function stopGroup(child: ChildProcess, stateDir: string): Promise<void> {
  if (child.exitCode === null && child.pid !== undefined) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
  rmSync(stateDir, { recursive: true, force: true });
}
