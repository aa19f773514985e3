import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bakedMismatches } from '../../functions/config/baked-config.ts';
import { BUILD_MANIFEST_FILE, type BuildManifest } from '../../functions/hosts/static/build-manifest.ts';
import { freshDataDir } from './data-dirs.ts';
import { engineEnv } from './engines.ts';

export { freshDataDir };

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Astro's command-line entry, as its package names it (it moved between majors), to run with this Node. */
export const ASTRO_CLI = path.join(
  ROOT,
  'node_modules/astro',
  (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/astro/package.json'), 'utf8')) as { bin: { astro: string } })
    .bin.astro,
);
/** The production entry as the build compiles it (`npm run serve`); tests run what production runs. */
export const SERVER_ENTRY = 'dist/server/portfolio.mjs';

/**
 * The environment a test server runs with. A test that sets a baked variable (a quota, say) to
 * see it enforced runs against the build made with the defaults, so it says so with
 * ALLOW_BUILD_MISMATCH; a server whose environment matches the build keeps the check on.
 */
export function serverEnv(dataDir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  const full = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env };
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'dist', BUILD_MANIFEST_FILE), 'utf8')) as BuildManifest;
  let differs = false;
  try {
    differs = env.ALLOW_BUILD_MISMATCH === undefined && bakedMismatches(manifest.environment, full).length > 0;
  } catch {
    // An invalid environment: the server itself reports it.
  }
  return differs ? { ...full, ALLOW_BUILD_MISMATCH: 'true' } : full;
}

/** A running production server (the compiled `npm run serve` entry) on an ephemeral port. */
export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  process: ChildProcess;
  /** Every stdout line so far, parsed as JSON where it is JSON. */
  logLines: Record<string, unknown>[];
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

interface StartOptions {
  nodeBinary?: string;
  onLog?: (entry: Record<string, unknown>) => void;
}

/**
 * Starts the server with the given environment; resolves once it logs that it listens.
 * `options.nodeBinary` runs it on another Node.js than this one (scripts/fetch-node.mjs);
 * `options.onLog` sees every stdout line as it comes, those before 'listening' included (a start that waits).
 */
export async function startServer(
  env: Record<string, string> = {},
  dataDir = freshDataDir(),
  { nodeBinary = process.execPath, onLog = () => undefined }: StartOptions = {},
): Promise<RunningServer> {
  const child = spawn(nodeBinary, [SERVER_ENTRY], {
    cwd: ROOT,
    env: serverEnv(dataDir, { ...(await engineEnv(dataDir)), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logLines: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 90_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${stderr}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = logEntry(line);
      logLines.push(entry);
      onLog(entry);
      if (entry.message === 'listening') {
        clearTimeout(timer);
        resolve({
          baseUrl: `http://127.0.0.1:${entry.port as number}`,
          dataDir,
          process: child,
          logLines,
          stderr: () => stderr,
          stop(signal: NodeJS.Signals = 'SIGTERM') {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
  });
}

/**
 * Runs the server entry expecting it to refuse to start; returns its exit code and stderr.
 * The environment is passed as given (no ALLOW_BUILD_MISMATCH added).
 */
export function startExpectingFailure(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATA_DIR: freshDataDir(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

/** One line a process wrote to stdout: its JSON log entry, or `{ raw }` for a line that is not JSON. */
export function logEntry(line: string): Record<string, unknown> {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return { raw: line };
  }
}
