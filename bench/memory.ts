/**
 * The Node server's memory at a size: idle RSS after start, then RSS after a client has asked for
 * every built file once in each encoding (brotli, gzip, none), MEMORY_PASSES times (3 by default):
 * a bounded cache grows with the first pass and not with the next.
 *
 *   node --import tsx bench/memory.ts [root of a built copy] [server entry under it]
 *
 * The root defaults to this checkout and the entry to dist/server/portfolio.mjs (another entry
 * under dist/, such as a copy of an earlier bundle, measures that code on the same build).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../functions/config/env.ts';
import { builtFileHeaders } from '../functions/hosts/static/built-file-headers.ts';
import { listBuiltFiles } from '../functions/hosts/static/built-files.ts';
import { freePort } from '../tests/support/free-port.ts';
import { BENCH_SERVER_ENV, ROOT } from './processes.ts';

const IDLE_MS = Number(process.env.MEMORY_IDLE_MS ?? 5000);
/** How many times the client asks for every file: a bounded cache stops growing after the first. */
const PASSES = Number(process.env.MEMORY_PASSES ?? 3);
const CLIENTS = 8;
const ENCODINGS = ['br', 'gzip', 'identity'] as const;

const root = path.resolve(process.argv[2] ?? ROOT);
const entry = process.argv[3] ?? 'dist/server/portfolio.mjs';

function rssMiB(pid: number, field = 'VmRSS'): number {
  const kib = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kib / 102.4) / 10;
}

function get(port: number, urlPath: string, encoding: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: urlPath, headers: { 'accept-encoding': encoding } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function untilUp(port: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if ((await get(port, '/', 'identity')) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the server did not answer / in time');
}

const port = await freePort();
const child = spawn(process.execPath, [entry], {
  cwd: root,
  env: {
    ...process.env,
    ...BENCH_SERVER_ENV,
    ACCESS_LOG: 'false',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'memory-bench-')),
    PORT: String(port),
    HOST: '127.0.0.1',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  await untilUp(port);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const idle = rssMiB(child.pid!);

  const clientDir = path.join(root, 'dist', 'client');
  const paths = [...builtFileHeaders(listBuiltFiles(clientDir), loadConfig({})).paths.keys()];
  const statuses = new Map<number, number>();
  const afterPasses: number[] = [];
  for (let pass = 0; pass < PASSES; pass += 1) {
    for (const encoding of ENCODINGS) {
      let next = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < paths.length) {
            const status = await get(port, paths[next++]!, encoding);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }),
      );
    }
    afterPasses.push(rssMiB(child.pid!));
  }
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  console.log(
    JSON.stringify({
      root,
      entry,
      files: paths.length,
      idleRssMiB: idle,
      afterEachPassRssMiB: afterPasses,
      afterIdleRssMiB: rssMiB(child.pid!),
      peakRssMiB: rssMiB(child.pid!, 'VmHWM'),
      statuses: Object.fromEntries(statuses),
    }),
  );
} finally {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
