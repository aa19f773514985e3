import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { startDelayProxy } from '../tests/support/delay-proxy.ts';
import { HAS_PGBOUNCER, startPgBouncer } from '../tests/support/pgbouncer.ts';
import { HAS_POSTGRES, migrateDatabase, startPostgres } from '../tests/support/postgres.ts';
import { HAS_REDIS, startRedis } from '../tests/support/redis.ts';
import { startBareWorker, type FixedAnswer } from './bare-worker.ts';
import { startWorkerd } from './workerd-target.ts';
import { measureColdStart } from './cold-start.ts';
import { coldBurst, connectionsOfWarmInstance, type BurstFigures } from './function-bursts.ts';
import { readRequest } from './function-instances.ts';
import { QUOTA, quotaAnswers } from './function-quotas.ts';
import { connectionCounter } from './pg-connections.ts';
import { BENCH_SERVER_ENV, ROOT, SERVER_ENTRY, WORK_DIR } from './processes.ts';
import { nodeServerFirstRequestCpuMs, warmSamples } from './server-cpu.ts';
import { firstLine, stopGroup } from './spawned.ts';

/**
 * `npm run bench:functions`: the service as a function against the Node server, on the same
 * PostgreSQL (quotas counted there, no Redis, as a function deployment runs by default), on this
 * machine, in one run. Every CPU figure is the server's process (/proc or its own
 * process.cpuUsage), never the client's.
 * - Cold start: a fresh process per start, from spawn to the first answer of /api/v1/projects
 *   (the function: its bundle imported and called; the server: started and asked over HTTP), and
 *   for the function alone, module load to first answer. With the CPU of the function's module
 *   load and of its first request, and of the Node server's first request once started. Median of COLD_RUNS.
 * - Per request, warm: REQUESTS sequential reads (GET /api/v1/projects) then as many contact posts
 *   (with an Idempotency-Key: the claim, the quota, the message and the answer in PostgreSQL) over
 *   HTTP on loopback, to the Node server, to the function's bundle mounted in a minimal node:http
 *   server (one warm instance), and to the Worker in workerd (wrangler dev: a service per isolate,
 *   connections per request), straight to PostgreSQL and through PgBouncer in transaction mode
 *   (the local stand-in for Hyperdrive's pool); latency, and the server's CPU per request (for
 *   workerd, the workerd process's alone, not wrangler's proxy in front of it). Last, a bare
 *   Worker giving the read's bytes to every request in the same workerd: what workerd costs
 *   per request before any of the service runs.
 * - PostgreSQL connections of one warm instance during a burst of concurrent posts, and once idle.
 * - Bursts of cold instances (bench/function-bursts.ts): through a proxy that delays every packet
 *   10 ms each way; and against a database with max_connections = 60.
 * - The contact quota across two instances, without Redis and with Redis stopped (bench/function-quotas.ts).
 * - The bundles' sizes and largest dependencies (dist/functions/bundle-report.json).
 * The figures are printed, and written as JSON to BENCH_JSON when it is set (FunctionFigures).
 */
/** `BENCH_SHORT=1`: one cold start of each, a few requests, small bursts, to check that the bench runs (tests/system/function-bench.test.ts). */
const SHORT = process.env.BENCH_SHORT === '1';
const COLD_RUNS = Number(process.env.COLD_RUNS ?? (SHORT ? 1 : 7));
const REQUESTS = Number(process.env.REQUESTS ?? (SHORT ? 5 : 200));
const WARMUP = SHORT ? 2 : 20;
const CONCURRENT_POSTS = SHORT ? 5 : 20;
const BURST_THROUGH_PROXY = SHORT ? 10 : 40;
const BURST_SMALL_DATABASE = SHORT ? 10 : 200;
const SMALL_DATABASE_CONNECTIONS = 60;
const PROXY_DELAY_MS = 10;
/** Where the figures also go as JSON, when set. */
const FIGURES_FILE = process.env.BENCH_JSON;
const FUNCTION_BUNDLE = path.join(ROOT, 'dist/functions/vercel.mjs');
const CHILD = path.join(ROOT, 'bench/function-child.mjs');

/** One warm target's latencies and CPU per request, in milliseconds. */
interface WarmRow {
  target: string;
  readMedianMs: number;
  readP95Ms: number;
  writeMedianMs: number;
  writeP95Ms: number;
  readCpuMs: number;
  writeCpuMs: number;
}

/** What one run measured, in milliseconds (sizes in bytes, connections and answers as counts). */
interface FunctionFigures {
  coldStartMs: { functionSpawnToAnswer: number; functionLoadToAnswer: number; nodeServerSpawnToAnswer: number };
  firstRequestCpuMs: { functionModuleLoad: number; functionFirstRequest: number; nodeServerFirstRequest: number };
  warm: WarmRow[];
  connectionsPerInstance: { concurrentPosts: number; peak: number; idle: number };
  /** With, beside the burst, one cold instance through the proxy alone: the burst's time without the machine's CPU shared by all. */
  coldThroughProxy: BurstFigures & { oneInstanceAloneMs: number };
  coldOnSmallDatabase: BurstFigures & { maxConnections: number };
  quotas: { limit: number; posts: number; acceptedWithoutRedis: number; acceptedRedisStopped: number };
  bundles: { file: string; bytes: number; gzipBytes: number }[];
}

if (!HAS_POSTGRES || !HAS_REDIS || !HAS_PGBOUNCER)
  throw new Error(
    'bench:functions needs PostgreSQL, Redis and PgBouncer (Debian packages postgresql-15, redis-server, pgbouncer)',
  );

/** The last warm target: workerd alone, answering every request with the read's bytes (bench/bare-worker.ts). */
const BARE_WORKER = "bare Worker in workerd (the read's bytes to every request, nothing else)";

/** A request's answer as the bare Worker repeats it: the body and the headers that describe it. */
async function fixedAnswer(request: Request): Promise<FixedAnswer> {
  const response = await fetch(request);
  const body = await response.text();
  if (response.status !== 200) throw new Error(`the read answered ${response.status}`);
  return { body, headers: { 'content-type': response.headers.get('content-type') ?? 'application/json' } };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)] ?? NaN;
const ms = (value: number) => value.toFixed(1);
const counts = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');

const [redis, postgres, small] = await Promise.all([
  startRedis(),
  startPostgres(),
  startPostgres({ maxConnections: SMALL_DATABASE_CONNECTIONS }),
]);
const [pgbouncer, proxy] = await Promise.all([
  startPgBouncer(postgres.url),
  startDelayProxy({ port: postgres.port }, PROXY_DELAY_MS),
]);
/** A new database on `server`, migrated as the deploy step does (`npm run migrate`): a function instance only checks the schema. */
const migrated = async (server: { createDatabase(): Promise<string> }) => {
  const url = await server.createDatabase();
  await migrateDatabase(url);
  return url;
};
const rows: string[] = [];
const figures = {} as FunctionFigures;
try {
  const engines = { ...BENCH_SERVER_ENV, ACCESS_LOG: 'false', DATABASE_URL: await migrated(postgres) };

  // Cold starts and first requests, alternating.
  const function_ = {
    spawnMs: [] as number[],
    loadMs: [] as number[],
    loadCpuMs: [] as number[],
    firstCpuMs: [] as number[],
  };
  const server = { spawnMs: [] as number[], firstCpuMs: [] as number[] };
  for (let run = 0; run < COLD_RUNS; run++) {
    const cold = firstLine([process.execPath, CHILD, 'cold', FUNCTION_BUNDLE], engines, 'importToAnswerMs');
    const { value, atMs } = await cold.line;
    if (value.status !== 200) throw new Error(`the function answered ${value.status}`);
    function_.spawnMs.push(atMs);
    function_.loadMs.push(value.importToAnswerMs ?? NaN);
    function_.loadCpuMs.push(value.loadCpuMs ?? NaN);
    function_.firstCpuMs.push(value.firstRequestCpuMs ?? NaN);
    server.spawnMs.push((await measureColdStart(engines)).firstApiMs);
    server.firstCpuMs.push(await nodeServerFirstRequestCpuMs(engines));
  }
  figures.coldStartMs = {
    functionSpawnToAnswer: median(function_.spawnMs),
    functionLoadToAnswer: median(function_.loadMs),
    nodeServerSpawnToAnswer: median(server.spawnMs),
  };
  figures.firstRequestCpuMs = {
    functionModuleLoad: median(function_.loadCpuMs),
    functionFirstRequest: median(function_.firstCpuMs),
    nodeServerFirstRequest: median(server.firstCpuMs),
  };
  rows.push(
    `Cold start, median of ${COLD_RUNS} fresh processes (ms): function spawn→first answer ${ms(figures.coldStartMs.functionSpawnToAnswer)} ` +
      `(module load→first answer ${ms(figures.coldStartMs.functionLoadToAnswer)}); Node server spawn→first answer ${ms(figures.coldStartMs.nodeServerSpawnToAnswer)}`,
    `Server CPU of a fresh instance, median of ${COLD_RUNS} (ms): function module load ${ms(figures.firstRequestCpuMs.functionModuleLoad)} ` +
      `(the service is built at module scope), first GET /api/v1/projects ${ms(figures.firstRequestCpuMs.functionFirstRequest)} (goal ≤ 50); ` +
      `Node server first GET /api/v1/projects after its start ${ms(figures.firstRequestCpuMs.nodeServerFirstRequest)}`,
  );

  // Warm: the Node server, the function in a minimal server, the Worker in workerd straight to PostgreSQL and pooled.
  const workerd = (databaseUrl: string) => () =>
    startWorkerd({ ...engines, DATABASE_URL: databaseUrl }, '/api/v1/projects');
  const targets: { name: string; start: () => Promise<{ baseUrl: string; pid: number; stop(): Promise<void> }> }[] = [
    {
      name: 'Node server',
      start: async () => {
        const { child, line } = firstLine(
          [process.execPath, SERVER_ENTRY],
          { ...engines, ACCESS_LOG: 'true', HOST: '127.0.0.1', DATA_DIR: mkdtempSync(path.join(WORK_DIR, 'warm-')) },
          'port',
        );
        const { value } = await line;
        return { baseUrl: `http://127.0.0.1:${value.port}`, pid: child.pid!, stop: () => stopGroup(child) };
      },
    },
    {
      name: 'function (fetch handler in node:http)',
      start: async () => {
        const { child, line } = firstLine([process.execPath, CHILD, 'serve', FUNCTION_BUNDLE], engines, 'port');
        const { value } = await line;
        return { baseUrl: `http://127.0.0.1:${value.port}`, pid: child.pid!, stop: () => stopGroup(child) };
      },
    },
    { name: 'Worker in workerd, straight to PostgreSQL', start: workerd(engines.DATABASE_URL) },
    {
      name: 'Worker in workerd, through PgBouncer (transaction mode)',
      start: workerd(pgbouncer.urlOf(engines.DATABASE_URL)),
    },
    { name: BARE_WORKER, start: () => startBareWorker(readAnswer!) },
  ];
  rows.push(
    '',
    `Per request, warm, ${REQUESTS} sequential reads then ${REQUESTS} contact posts, on PostgreSQL without Redis: ` +
      'latency median / p95 (ms) and the server process CPU per request (ms):',
    '| Target | GET /api/v1/projects | CPU per read | POST /api/v1/contact | CPU per post |',
    '| --- | --- | --- | --- | --- |',
  );
  figures.warm = [];
  /** The Node server's answer to the read, which the bare Worker gives to every request. */
  let readAnswer: FixedAnswer | undefined;
  for (const target of targets) {
    const running = await target.start();
    try {
      readAnswer ??= await fixedAnswer(readRequest(running.baseUrl));
      const samples = await warmSamples(running.baseUrl, running.pid, REQUESTS, WARMUP);
      const row = {
        target: target.name,
        readMedianMs: median(samples.read),
        readP95Ms: p95(samples.read),
        writeMedianMs: median(samples.write),
        writeP95Ms: p95(samples.write),
        readCpuMs: samples.readCpuMs,
        writeCpuMs: samples.writeCpuMs,
      };
      figures.warm.push(row);
      rows.push(
        `| ${target.name} | ${ms(row.readMedianMs)} / ${ms(row.readP95Ms)} | ${ms(row.readCpuMs)} | ` +
          `${ms(row.writeMedianMs)} / ${ms(row.writeP95Ms)} | ${ms(row.writeCpuMs)} |`,
      );
    } finally {
      await running.stop();
    }
  }
  const [straight, pooled, bare] = figures.warm.slice(-3) as [WarmRow, WarmRow, WarmRow];
  const beyond = (row: WarmRow) =>
    `a read ${ms(row.readCpuMs - bare.readCpuMs)} ms and a post ${ms(row.writeCpuMs - bare.writeCpuMs)} ms`;
  rows.push(
    'Goals: CPU per read ≤ 2 ms and per contact post ≤ 5 ms warm; in workerd per read ≤ 2 ms, per write ≤ 10 ms pooled. ' +
      'PgBouncer in transaction mode stands in for Hyperdrive here (same protocol position; Hyperdrive also caches and runs near the database). ' +
      `The bare Worker is workerd's own cost per request under wrangler dev on this machine, which the Worker rows include: ` +
      `beyond it, the service costs ${beyond(straight)} straight to PostgreSQL, ${beyond(pooled)} pooled.`,
  );

  // The connections of one warm function instance, on a database of its own.
  {
    const databaseUrl = await migrated(postgres);
    const counter = await connectionCounter(postgres.url, databaseUrl);
    const { child, line } = firstLine(
      [process.execPath, CHILD, 'serve', FUNCTION_BUNDLE],
      { ...engines, DATABASE_URL: databaseUrl },
      'port',
    );
    try {
      const { value } = await line;
      const seen = await connectionsOfWarmInstance(`http://127.0.0.1:${value.port}`, counter, CONCURRENT_POSTS);
      figures.connectionsPerInstance = { concurrentPosts: CONCURRENT_POSTS, ...seen };
    } finally {
      await stopGroup(child);
      await counter.end();
    }
    const { peak, idle } = figures.connectionsPerInstance;
    rows.push(
      '',
      `PostgreSQL connections of one warm function instance: at most ${peak} during ${CONCURRENT_POSTS} concurrent contact posts, ` +
        `${idle} one second after the last answer (goal ≤ 1 and 0)`,
    );
  }

  // Bursts of cold instances: far from the database, and on a database with few connections.
  {
    const databaseUrl = await migrated(postgres);
    const counter = await connectionCounter(postgres.url, databaseUrl);
    try {
      const alone = await coldBurst(proxy.urlThrough(databaseUrl), counter, 'contact', 1);
      figures.coldThroughProxy = {
        ...(await coldBurst(proxy.urlThrough(databaseUrl), counter, 'contact', BURST_THROUGH_PROXY)),
        oneInstanceAloneMs: alone.allAnsweredMs,
      };
    } finally {
      await counter.end();
    }
    const burst = figures.coldThroughProxy;
    rows.push(
      `${burst.instances} cold instances at once, a contact post each, through a proxy adding ${PROXY_DELAY_MS} ms each way: ` +
        `all answered in ${ms(burst.allAnsweredMs)} ms (goal ≤ 1000); ${counts(burst.statuses)}; ` +
        `at most ${burst.peakConnections} connections; CPU of the ${burst.processes} processes running them ${ms(burst.cpuMs)} ms ` +
        `(one per core); one cold instance alone the same way ${ms(burst.oneInstanceAloneMs)} ms`,
    );
  }
  {
    const databaseUrl = await migrated(small);
    const counter = await connectionCounter(small.url, databaseUrl);
    try {
      figures.coldOnSmallDatabase = {
        maxConnections: SMALL_DATABASE_CONNECTIONS,
        ...(await coldBurst(databaseUrl, counter, 'mixed', BURST_SMALL_DATABASE)),
      };
    } finally {
      await counter.end();
    }
    const burst = figures.coldOnSmallDatabase;
    rows.push(
      `${burst.instances} cold instances at once on a database with max_connections = ${SMALL_DATABASE_CONNECTIONS}, half reads, half contact posts: ` +
        `${counts(burst.statuses)} (goal: no 500, every read 200); at most ${burst.peakConnections} connections; ` +
        `all answered in ${ms(burst.allAnsweredMs)} ms, CPU of the ${burst.processes} processes running them ${ms(burst.cpuMs)} ms`,
    );
  }

  // The contact quota across two instances: no Redis, and Redis stopped before the posts.
  {
    const withoutRedis = await quotaAnswers(await migrated(postgres));
    const redisStopped = await quotaAnswers(await migrated(postgres), redis);
    figures.quotas = {
      ...QUOTA,
      acceptedWithoutRedis: withoutRedis['200'] ?? 0,
      acceptedRedisStopped: redisStopped['200'] ?? 0,
    };
    rows.push(
      '',
      `Contact quota ${QUOTA.limit}/600 s, ${QUOTA.posts} posts of one client to two instances by turns (goal: exactly ${QUOTA.limit} accepted): ` +
        `without Redis ${figures.quotas.acceptedWithoutRedis} accepted (${counts(withoutRedis)}); ` +
        `REDIS_URL set and Redis stopped before the posts ${figures.quotas.acceptedRedisStopped} accepted (${counts(redisStopped)})`,
    );
  }

  const report = JSON.parse(readFileSync(path.join(ROOT, 'dist/functions/bundle-report.json'), 'utf8')) as {
    file: string;
    bytes: number;
    gzipBytes: number;
    largestInputs: { name: string; bytes: number }[];
  }[];
  rows.push('', 'Bundles (raw / gzip, KiB) and their largest inputs (KiB in the bundle):');
  figures.bundles = [];
  for (const bundle of report) {
    figures.bundles.push({ file: bundle.file, bytes: bundle.bytes, gzipBytes: bundle.gzipBytes });
    rows.push(
      `- ${bundle.file}: ${Math.round(bundle.bytes / 1024)} / ${Math.round(bundle.gzipBytes / 1024)}; ` +
        bundle.largestInputs.map(({ name, bytes }) => `${name} ${Math.round(bytes / 1024)}`).join(', '),
    );
  }
} finally {
  await Promise.all([pgbouncer.stop(), proxy.close()]);
  // Redis may already be stopped (the quota case): stop() then does nothing.
  await Promise.all([redis.stop(), postgres.destroy(), small.destroy()]);
}
if (FIGURES_FILE !== undefined) writeFileSync(FIGURES_FILE, `${JSON.stringify(figures, null, 2)}\n`);
process.stdout.write(
  `${rows.join('\n')}\n\nNode ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), one run.\n`,
);
