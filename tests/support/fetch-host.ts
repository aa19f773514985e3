import { spawn } from 'node:child_process';
import { mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { functionEngineEnv } from './engines.ts';
import { freshDataDir, logEntry, ROOT, serverEnv } from './server.ts';

/** The function bundle the host imports anew per request; built once per test file. */
const BUNDLE_DIR = path.join(ROOT, 'node_modules/.cache/fetch-host');

let bundled: Promise<string> | undefined;

/**
 * The function as one ES module, as a host's bundler makes it (the drivers stay external, as in
 * scripts/bundle-server.ts). It lives under node_modules so the drivers resolve from it.
 */
function functionBundle(): Promise<string> {
  bundled ??= (async () => {
    mkdirSync(BUNDLE_DIR, { recursive: true });
    // Written aside, then renamed over the one bundle: a host already importing it sees a whole file.
    const outfile = path.join(BUNDLE_DIR, 'function.mjs');
    const written = path.join(BUNDLE_DIR, `function-${process.pid}.mjs`);
    await build({
      entryPoints: [path.join(ROOT, 'tests/support/fetch-function-entry.ts')],
      outfile: written,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: ['better-sqlite3', 'ioredis', 'pg', 'rate-limiter-flexible'],
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
      },
      logLevel: 'warning',
    });
    renameSync(written, outfile);
    return outfile;
  })();
  return bundled;
}

export interface FetchHost {
  baseUrl: string;
  dataDir: string;
  /** Every stdout line (the function's log), parsed as JSON where it is JSON. */
  logLines: Record<string, unknown>[];
  /** Runs the function's scheduled entry once, on a fresh instance; resolves with its report. */
  scheduled(): Promise<Record<string, unknown>>;
  /** Resolves once every waitUntil promise handed to the host so far has settled; with how many instances it made. */
  settled(): Promise<{ instances: number }>;
  stop(): Promise<void>;
}

export interface FetchHostOptions {
  /** Whether the host offers waitUntil (true by default). */
  waitUntil?: boolean;
}

/**
 * The function mounted in a minimal Web-standard server (tests/support/fetch-host-child.mjs) in
 * a child process, on the run's engine (engineEnv: PostgreSQL and Redis under system-shared),
 * with a fresh module instance per request.
 */
export async function startFetchHost(
  env: Record<string, string> = {},
  { waitUntil = true }: FetchHostOptions = {},
  dataDir = freshDataDir(),
): Promise<FetchHost> {
  const bundle = await functionBundle();
  const child = spawn(process.execPath, [path.join(ROOT, 'tests/support/fetch-host-child.mjs')], {
    cwd: ROOT,
    env: {
      ...serverEnv(dataDir, { ...(await functionEngineEnv(dataDir)), ...env }),
      FETCH_HOST_BUNDLE: bundle,
      FETCH_HOST_DIST: path.join(ROOT, 'dist'),
      FETCH_HOST_WAIT_UNTIL: waitUntil ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const logLines: Record<string, unknown>[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the fetch host did not start: ${stderr}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`the fetch host exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const entry = logEntry(line);
      logLines.push(entry);
      if (entry.message === 'listening') {
        clearTimeout(timer);
        resolve(entry.port as number);
      }
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const control = async (name: string) => {
    const response = await fetch(`${baseUrl}/__host/${name}`, { method: 'POST' });
    if (response.status !== 200) throw new Error(`host ${name}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  return {
    baseUrl,
    dataDir,
    logLines,
    scheduled: () => control('scheduled'),
    settled: async () => (await control('settled')) as { instances: number },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
