import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../tests/support/free-port.ts';
import { HAS_POSTGRES, startPostgres } from '../tests/support/postgres.ts';
import { HAS_REDIS, startRedis } from '../tests/support/redis.ts';
import { spawnWranglerDev } from '../tests/support/workerd-host.ts';
import { measureColdStart } from './cold-start.ts';
import { BENCH_SERVER_ENV, ROOT, SERVER_ENTRY, WORK_DIR } from './processes.ts';

/**
 * `npm run bench:functions`: the service as a function against the Node server, on the same
 * PostgreSQL and Redis, on this machine, in one run.
 * - Cold start: a fresh process per start, from spawn to the first answer of /api/v1/projects
 *   (the function: its bundle imported and called; the server: started and asked over HTTP), and
 *   for the function alone, module load to first answer. Median of COLD_RUNS.
 * - Per request, warm: REQUESTS sequential requests of each kind over HTTP on loopback, to the Node
 *   server, to the function's bundle mounted in a minimal node:http server (one warm instance), and
 *   to the Worker in workerd (wrangler dev; a service per request, as a Worker needs). A read
 *   (GET /api/v1/projects: a quota counted in Redis) and a write (POST /api/v1/contact with an
 *   Idempotency-Key: the claim, the message and the answer in PostgreSQL, the quota in Redis).
 * - The bundles' sizes and largest dependencies (dist/functions/bundle-report.json).
 * The figures are printed, and written as JSON to BENCH_JSON when it is set (FunctionFigures).
 */
/** `BENCH_SHORT=1`: one cold start of each and a few requests, to check that the bench runs (tests/system/function-bench.test.ts). */
const SHORT = process.env.BENCH_SHORT === '1';
const COLD_RUNS = Number(process.env.COLD_RUNS ?? (SHORT ? 1 : 7));
const REQUESTS = Number(process.env.REQUESTS ?? (SHORT ? 5 : 200));
const WARMUP = SHORT ? 2 : 20;
/** Where the figures also go as JSON, when set. */
const FIGURES_FILE = process.env.BENCH_JSON;
const FUNCTION_BUNDLE = path.join(ROOT, 'dist/functions/vercel.mjs');
const CHILD = path.join(ROOT, 'bench/function-child.mjs');

/** What one run measured, in milliseconds (sizes in bytes). */
interface FunctionFigures {
  coldStartMs: { functionSpawnToAnswer: number; functionLoadToAnswer: number; nodeServerSpawnToAnswer: number };
  warm: { target: string; readMedianMs: number; readP95Ms: number; writeMedianMs: number; writeP95Ms: number }[];
  bundles: { file: string; bytes: number; gzipBytes: number }[];
}

if (!HAS_POSTGRES || !HAS_REDIS)
  throw new Error('bench:functions needs PostgreSQL and Redis (Debian packages postgresql-15, redis-server)');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)] ?? NaN;
const ms = (value: number) => value.toFixed(1);

/** Spawns a process and resolves with its first stdout line that is JSON with `key`, and when that came. */
function firstLine(args: string[], env: Record<string, string>, key: string) {
  const started = performance.now();
  const child = spawn(args[0]!, args.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const line = new Promise<{ value: Record<string, number>; atMs: number }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (text) => {
      if (!text.startsWith('{') || !text.includes(`"${key}"`)) return;
      resolve({ value: JSON.parse(text) as Record<string, number>, atMs: performance.now() - started });
    });
  });
  return { child, line };
}

async function untilAnswer(url: string, started: number): Promise<number> {
  for (const deadline = started + 60_000; performance.now() < deadline;) {
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`${url} did not answer in time`);
}

function stop(child: { pid?: number; exitCode: number | null }): void {
  if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
}

async function latency(baseUrl: string): Promise<{ read: number[]; write: number[] }> {
  const read: number[] = [];
  const write: number[] = [];
  const post = () =>
    fetch(`${baseUrl}/api/v1/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({
        name: 'Bench',
        email: 'bench@example.com',
        message: `A benchmark message ${randomUUID()}`,
      }),
    });
  for (let i = 0; i < WARMUP; i++) {
    await (await fetch(`${baseUrl}/api/v1/projects`)).arrayBuffer();
    await (await post()).arrayBuffer();
  }
  for (let i = 0; i < REQUESTS; i++) {
    let started = performance.now();
    const got = await fetch(`${baseUrl}/api/v1/projects`);
    await got.arrayBuffer();
    read.push(performance.now() - started);
    if (got.status !== 200) throw new Error(`read answered ${got.status}`);
    started = performance.now();
    const posted = await post();
    await posted.arrayBuffer();
    write.push(performance.now() - started);
    if (posted.status !== 200) throw new Error(`contact answered ${posted.status}`);
  }
  return { read, write };
}

const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
const rows: string[] = [];
const figures: FunctionFigures = {
  coldStartMs: { functionSpawnToAnswer: NaN, functionLoadToAnswer: NaN, nodeServerSpawnToAnswer: NaN },
  warm: [],
  bundles: [],
};
try {
  const engines = {
    ...BENCH_SERVER_ENV,
    ACCESS_LOG: 'false',
    REDIS_URL: redis.url,
    DATABASE_URL: await postgres.createDatabase(),
  };

  // Cold starts, alternating, after one start of each that migrates the database.
  const function_: { spawnMs: number[]; loadMs: number[] } = { spawnMs: [], loadMs: [] };
  const server: number[] = [];
  for (let run = -1; run < COLD_RUNS; run++) {
    const cold = firstLine([process.execPath, CHILD, 'cold', FUNCTION_BUNDLE], engines, 'importToAnswerMs');
    const { value, atMs } = await cold.line;
    if (value.status !== 200) throw new Error(`the function answered ${value.status}`);
    if (run >= 0) {
      function_.spawnMs.push(atMs);
      function_.loadMs.push(value.importToAnswerMs ?? NaN);
    }
    const { firstApiMs } = await measureColdStart(engines);
    if (run >= 0) server.push(firstApiMs);
  }
  figures.coldStartMs = {
    functionSpawnToAnswer: median(function_.spawnMs),
    functionLoadToAnswer: median(function_.loadMs),
    nodeServerSpawnToAnswer: median(server),
  };
  rows.push(
    `Cold start, median of ${COLD_RUNS} fresh processes (ms): function spawn→first answer ${ms(median(function_.spawnMs))} ` +
      `(module load→first answer ${ms(median(function_.loadMs))}); Node server spawn→first answer ${ms(median(server))}`,
  );

  // Warm latency: the Node server, the function in a minimal server, the Worker in workerd.
  const targets: { name: string; start: () => Promise<{ baseUrl: string; stop: () => void }> }[] = [
    {
      name: 'Node server',
      start: async () => {
        const { child, line } = firstLine(
          [process.execPath, SERVER_ENTRY],
          {
            ...engines,
            ACCESS_LOG: 'true',
            PORT: '0',
            HOST: '127.0.0.1',
            DATA_DIR: mkdtempSync(path.join(WORK_DIR, 'warm-')),
          },
          'port',
        );
        const { value } = await line;
        return { baseUrl: `http://127.0.0.1:${value.port}`, stop: () => stop(child) };
      },
    },
    {
      name: 'function (fetch handler in node:http)',
      start: async () => {
        const { child, line } = firstLine([process.execPath, CHILD, 'serve', FUNCTION_BUNDLE], engines, 'port');
        const { value } = await line;
        return { baseUrl: `http://127.0.0.1:${value.port}`, stop: () => stop(child) };
      },
    },
    {
      name: 'Worker in workerd (wrangler dev, a service per request)',
      start: async () => {
        const port = await freePort();
        const state = mkdtempSync(path.join(WORK_DIR, 'wrangler-'));
        const child = spawnWranglerDev(port, { ...engines, ACCESS_LOG: 'false' }, state, 'ignore');
        await untilAnswer(`http://127.0.0.1:${port}/api/v1/projects`, performance.now());
        return { baseUrl: `http://127.0.0.1:${port}`, stop: () => stop(child) };
      },
    },
  ];
  rows.push(
    '',
    `Per request, warm, ${REQUESTS} sequential requests each, ms (median / p95):`,
    '| Target | GET /api/v1/projects (Redis) | POST /api/v1/contact (PostgreSQL + Redis) |',
    '| --- | --- | --- |',
  );
  for (const target of targets) {
    const running = await target.start();
    try {
      const { read, write } = await latency(running.baseUrl);
      figures.warm.push({
        target: target.name,
        readMedianMs: median(read),
        readP95Ms: p95(read),
        writeMedianMs: median(write),
        writeP95Ms: p95(write),
      });
      rows.push(
        `| ${target.name} | ${ms(median(read))} / ${ms(p95(read))} | ${ms(median(write))} / ${ms(p95(write))} |`,
      );
    } finally {
      running.stop();
    }
  }

  const report = JSON.parse(readFileSync(path.join(ROOT, 'dist/functions/bundle-report.json'), 'utf8')) as {
    file: string;
    bytes: number;
    gzipBytes: number;
    largestInputs: { name: string; bytes: number }[];
  }[];
  rows.push('', 'Bundles (raw / gzip, KiB) and their largest inputs (KiB in the bundle):');
  for (const bundle of report) {
    figures.bundles.push({ file: bundle.file, bytes: bundle.bytes, gzipBytes: bundle.gzipBytes });
    rows.push(
      `- ${bundle.file}: ${Math.round(bundle.bytes / 1024)} / ${Math.round(bundle.gzipBytes / 1024)}; ` +
        bundle.largestInputs.map(({ name, bytes }) => `${name} ${Math.round(bytes / 1024)}`).join(', '),
    );
  }
} finally {
  await Promise.all([redis.stop(), postgres.destroy()]);
}
if (FIGURES_FILE !== undefined) writeFileSync(FIGURES_FILE, `${JSON.stringify(figures, null, 2)}\n`);
process.stdout.write(
  `${rows.join('\n')}\n\nNode ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), one run.\n`,
);
