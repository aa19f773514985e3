import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import type { QuotaLimiter } from '../functions/limits/rate-limiter.ts';
import { openPostgresStorage } from '../functions/state/postgres/postgres-storage.ts';
import { HAS_POSTGRES, startPostgres } from '../tests/support/postgres.ts';

/**
 * `node --import tsx bench/pg-quotas.ts`: how many quota decisions per second PostgreSQL alone
 * carries on this machine, through the service's own PostgreSQL quota counts (one upsert per
 * decision, a second read per refusal) on a throwaway PostgreSQL 15 started as the tests start
 * theirs (fsync on), with the long-lived server's pool (16 connections).
 *
 * BENCH_CONCURRENCY (32) decisions are kept in flight from this process for BENCH_SECONDS (4),
 * BENCH_RUNS (5) times per case, the cases alternating within each round; the figure is the
 * median run's decisions per second, as the client sees them answered, with that run's p99. The client shares the machine's
 * cores with PostgreSQL, so its own CPU per decision is printed too.
 * - many clients: keys drawn from 10,000, the quota never reached: one statement per decision.
 * - one client over its quota: every decision a refusal (the flood a quota exists for): two.
 * - many clients, logged table: the first case on a WAL-logged table (SET LOGGED), for what
 *   UNLOGGED saves: a logged count waits for its commit's WAL flush.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

if (!HAS_POSTGRES) throw new Error('bench/pg-quotas.ts needs PostgreSQL (Debian package postgresql-15)');

interface Run {
  perSecond: number;
  p99Ms: number;
  clientCpuUsPerDecision: number;
}

/** Keeps CONCURRENCY calls of `decide` in flight for SECONDS; what the client saw. */
async function measure(decide: () => unknown): Promise<Run> {
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        await decide();
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / elapsed,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? NaN,
    clientCpuUsPerDecision: (used.user + used.system) / latencies.length,
  };
}

const postgres = await startPostgres();
try {
  const url = await postgres.createDatabase();
  const storage = await openPostgresStorage(url, { idempotencyTtlMs: 60_000 });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const counts = storage.quotaCounts;
    if (counts === undefined) throw new Error('PostgreSQL storage counts no quotas');
    let round = 0;
    const many = (limiter: QuotaLimiter) => () => limiter.consume(`198.51.100.${Math.floor(Math.random() * 10_000)}`);
    const cases: { name: string; logged: boolean; decide: () => () => unknown }[] = [
      {
        name: 'many clients, allowed (1 statement)',
        logged: false,
        decide: () => many(counts.limiter(`bench-many-${round}`, { count: 1_000_000_000, seconds: 600 })),
      },
      {
        name: 'one client over its quota (2 statements)',
        logged: false,
        decide: () => {
          const limiter = counts.limiter(`bench-one-${round}`, { count: 1, seconds: 600 });
          return () => limiter.consume('203.0.113.1');
        },
      },
      {
        name: 'many clients, allowed, logged table',
        logged: true,
        decide: () => many(counts.limiter(`bench-logged-${round}`, { count: 1_000_000_000, seconds: 600 })),
      },
    ];
    const results = new Map<string, Run[]>(cases.map((item) => [item.name, []]));
    for (round = 0; round < RUNS; round++) {
      for (const item of cases) {
        await admin.query(`ALTER TABLE quota_windows SET ${item.logged ? 'LOGGED' : 'UNLOGGED'}`);
        await admin.query('TRUNCATE quota_windows');
        const run = await measure(item.decide());
        results.get(item.name)!.push(run);
        process.stderr.write(`${item.name}, run ${round + 1}: ${Math.round(run.perSecond)}/s\n`);
      }
    }
    const load = loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
    console.log(
      `PostgreSQL quota decisions, ${cpus().length} cores, load ${load}; ${RUNS} runs of ${SECONDS} s, ${CONCURRENCY} in flight, pool 16, fsync on`,
    );
    console.log('| case | decisions/s, median (range) | p99 of the median run | client CPU per decision |');
    console.log('| --- | --- | --- | --- |');
    for (const [name, runs] of results) {
      const sorted = [...runs].sort((a, b) => a.perSecond - b.perSecond);
      const middle = sorted[Math.floor(sorted.length / 2)]!;
      const range = `${Math.round(sorted[0]!.perSecond)}–${Math.round(sorted.at(-1)!.perSecond)}`;
      console.log(
        `| ${name} | ${Math.round(middle.perSecond)} (${range}) | ${middle.p99Ms.toFixed(1)} ms | ${Math.round(middle.clientCpuUsPerDecision)} µs |`,
      );
    }
  } finally {
    await admin.end();
    await storage.close();
  }
} finally {
  await postgres.destroy();
}
