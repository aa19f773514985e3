import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { measureColdStart, type ColdStart } from './cold-start.ts';
import { cpuSeconds, startClient, type LoadClient } from './load-client.ts';
import type { Sample } from './client.ts';
import { profileTarget } from './profile.ts';
import { BENCH_SERVER_ENV, SERVER_ENTRY, startNode, WORK_DIR, type Started } from './processes.ts';
import { hasEngine, SHARED_ENGINES, startEngine } from './shared-engines.ts';
import { HAS_NGINX } from '../tests/support/nginx.ts';
import { startNginxTarget } from './nginx-target.ts';
import { liveScenario, scenarios, type Scenario } from './scenarios.ts';

/**
 * `npm run bench`: first the cold start of the production entry (spawn to first 200 of a page
 * and of the API, then idle RSS), then the production server and a bare node:http baseline
 * answering the same bytes, driven in turn in one run by autocannon in a process of its own
 * (`bench/client.ts`); prints medians of several runs and the ratio to the baseline. It first
 * shows whether the baseline is at its ceiling: one more client process adds no req/s. The machine
 * is shared, so only medians are quoted.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The exact response the server gives for a scenario (as autocannon asks: no compression), for the baseline to replay. */
async function fixtureFor(server: Started, named: Scenario) {
  const scenario = await liveScenario(named, server.port);
  return new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path: scenario.path, method: scenario.method, headers: scenario.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const status = res.statusCode ?? 0;
          if (status >= 300 && status !== scenario.expectStatus)
            reject(new Error(`${scenario.name}: the server answered ${status}: ${body.toString()}`));
          const skip = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
          const headers = Object.fromEntries(
            Object.entries(res.headers)
              .filter(([name]) => !skip.has(name))
              .map(([name, value]) => [name, String(value)]),
          );
          resolve({ status, headers, body: body.toString('base64') });
        });
      },
    );
    req.on('error', reject);
    req.end(scenario.sampleBody);
  });
}

const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
const colds: ColdStart[] = [];
for (let run = 0; run < COLD_RUNS; run++) colds.push(await measureColdStart());
const coldLine =
  COLD_RUNS === 0
    ? 'Cold start: not measured (BENCH_COLD_RUNS=0)'
    : `Cold start (${COLD_RUNS} starts of \`node ${SERVER_ENTRY}\`, medians): first 200 of / after ${Math.round(median(colds.map((c) => c.firstPageMs)))} ms, of /api/v1/projects after ${Math.round(median(colds.map((c) => c.firstApiMs)))} ms; idle RSS ${median(colds.map((c) => c.idleRssMiB))} MiB`;
process.stderr.write(`${coldLine}\n`);

/** Seconds of traffic each target gets under the profiler (BENCH_PROFILE_SECONDS=0 skips profiling). */
const PROFILE_SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 4);

const server = await startNode('server', [SERVER_ENTRY], {
  ...BENCH_SERVER_ENV,
  DATA_DIR: path.join(WORK_DIR, 'data'),
});
const fixtures: Record<string, unknown> = {};
// Keyed by scenario name: two scenarios may share a path (both MCP eras on /mcp).
for (const scenario of scenarios) fixtures[scenario.name] = await fixtureFor(server, scenario);
const fixtureFile = path.join(WORK_DIR, 'fixtures.json');
writeFileSync(fixtureFile, JSON.stringify(fixtures));
const baseline = await startNode('baseline', ['bench/baseline.ts', fixtureFile]);

/** Load-generating processes per measurement (BENCH_CLIENTS), sharing CONNECTIONS between them. */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1);
const clients = await Promise.all(Array.from({ length: CLIENTS }, startClient));
const rows: string[] = [];
/** Scenarios whose requests make sessions: the server's CPU per session. */
const sessions: string[] = [];
const ceiling: string[] = [];
let ceilingVerdict = '';
let failures = 0;

/** What a scenario is fired at: a Node process (its CPU read from its pid), or nginx (its own count). */
type Target = Started | { port: number; cpuSeconds(): number };
const cpuOf = (target: Target) => ('cpuSeconds' in target ? target.cpuSeconds() : cpuSeconds(target.child.pid!));

/** One run of a scenario against a server, with the share of a core that server used meanwhile. */
async function fire(
  target: Target,
  scenario: Scenario,
  seconds: number,
  using: LoadClient[] = clients,
  connectionsEach = Math.ceil(CONNECTIONS / using.length),
): Promise<Sample & { serverCpu: number }> {
  const cpuBefore = cpuOf(target);
  const started = performance.now();
  const samples = await Promise.all(
    using.map((one) =>
      one.fire({
        port: target.port,
        scenario: scenario.name,
        connections: connectionsEach,
        seconds,
      }),
    ),
  );
  const serverCpu = (cpuOf(target) - cpuBefore) / ((performance.now() - started) / 1000);
  const sum = (pick: (sample: Sample) => number) => samples.reduce((total, sample) => total + pick(sample), 0);
  return {
    rps: sum((s) => s.rps),
    // With several clients, the slowest client's percentiles: never better than the truth.
    p50: Math.max(...samples.map((s) => s.p50)),
    p99: Math.max(...samples.map((s) => s.p99)),
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    errorKinds: samples.flatMap((s) => s.errorKinds),
    clientCpu: Math.max(...samples.map((s) => s.clientCpu)),
    serverCpu,
  };
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

/**
 * The ceiling: the bare baseline under the bench's client processes, then under one more (each
 * with CONNECTIONS connections, on the same request). If the extra client adds no req/s, the
 * baseline is measured at its ceiling on this machine, not at the clients'. If it does, the
 * clients were the limit, or the machine was busy with other work: the run says so.
 */
async function showCeiling(probe: Scenario): Promise<void> {
  const extra = await startClient();
  try {
    await fire(baseline, probe, 1);
    const medians: number[] = [];
    let cpu = 0;
    for (const using of [clients, [...clients, extra]]) {
      const runs: Awaited<ReturnType<typeof fire>>[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await fire(baseline, probe, DURATION_SECONDS, using, CONNECTIONS));
      medians.push(median(runs.map((s) => s.rps)));
      cpu = Math.max(cpu, median(runs.map((s) => s.serverCpu)));
      ceiling.push(
        `| ${using.length} client process${using.length > 1 ? 'es' : ''}, ${CONNECTIONS} connections each | ${Math.round(medians.at(-1)!)} | ${median(runs.map((s) => s.p99))} | ${percent(median(runs.map((s) => s.serverCpu)))} | ${percent(median(runs.map((s) => s.clientCpu)))} |`,
      );
      process.stderr.write(`ceiling: ${ceiling.at(-1)}\n`);
    }
    const gain = medians[1]! / medians[0]! - 1;
    ceilingVerdict =
      gain > 0.05
        ? `NOT AT THE CEILING: one more client process added ${percent(gain)} req/s, so the clients limited the baseline. Run with BENCH_CLIENTS=${CLIENTS + 1}.`
        : cpu < 0.9
          ? `One more client process added ${percent(gain)} req/s, but the baseline never had more than ${percent(cpu)} of a core: other work on the machine set the pace, and req/s ratios are rough. The CPU ratios below hold better.`
          : `One more client process added ${percent(gain)} req/s and the baseline used ${percent(cpu)} of a core: it is at its ceiling on this machine.`;
  } finally {
    extra.stop();
  }
}

try {
  // BENCH_CEILING=0 leaves it out, to iterate on one target faster.
  if (process.env.BENCH_CEILING !== '0') await showCeiling(scenarios[0]!);

  /** One row of the table: the target beside the baseline, in alternating runs. */
  const measure = async (target: Target, scenario: Scenario, name = scenario.name) => {
    await fire(target, scenario, 1);
    await fire(baseline, scenario, 1);
    const ours: Awaited<ReturnType<typeof fire>>[] = [];
    const bare: Awaited<ReturnType<typeof fire>>[] = [];
    for (let run = 0; run < RUNS; run++) {
      bare.push(await fire(baseline, scenario, DURATION_SECONDS));
      ours.push(await fire(target, scenario, DURATION_SECONDS));
    }
    const unexpected = ours.reduce((sum, s) => sum + s.non2xx + s.errors, 0);
    if (unexpected > 0) {
      failures++;
      const kinds = ours.flatMap((s) => s.errorKinds);
      process.stderr.write(
        `${name}: ${unexpected} unexpected answers or errors${kinds.length > 0 ? `: ${kinds.join('; ')}` : ''}\n`,
      );
    }
    const rps = median(ours.map((s) => s.rps));
    const baseRps = median(bare.map((s) => s.rps));
    const clientCpu = Math.max(...ours.map((s) => s.clientCpu), ...bare.map((s) => s.clientCpu));
    // CPU time per answer: what a request costs the server, whatever else the machine was doing.
    const micros = (samples: typeof ours) => median(samples.map((s) => (s.serverCpu * 1e6) / s.rps));
    const [ourMicros, bareMicros] = [micros(ours), micros(bare)];
    rows.push(
      `| ${name} | ${Math.round(rps)} | ${Math.round(baseRps)} | ${(rps / baseRps).toFixed(2)} | ${median(ours.map((s) => s.p50))} | ${median(ours.map((s) => s.p99))} | ${median(bare.map((s) => s.p99))} | ${percent(median(ours.map((s) => s.serverCpu)))} | ${percent(clientCpu)} | ${ourMicros.toFixed(1)} | ${bareMicros.toFixed(1)} | ${(bareMicros / ourMicros).toFixed(2)} | ${unexpected} |`,
    );
    process.stderr.write(`${rows.at(-1)}\n`);
    if (scenario.requestsPerSession !== undefined) {
      sessions.push(
        `- ${name}: ${((ourMicros * scenario.requestsPerSession) / 1000).toFixed(2)} ms of server CPU per session (${scenario.requestsPerSession} requests of ${ourMicros.toFixed(1)} µs, medians)`,
      );
      process.stderr.write(`${sessions.at(-1)}\n`);
    }
  };
  for (const scenario of scenarios) await measure(server, scenario);
  // The same built files through the nginx site (dist/nginx/portfolio.conf), which serves them
  // itself with the service's headers: nginx against Node on the same files, in the same run.
  const built = scenarios.filter((scenario) => scenario.built);
  if (HAS_NGINX && built.length > 0) {
    const nginx = await startNginxTarget(server.port);
    try {
      for (const scenario of built) await measure(nginx, scenario, `${scenario.name} through nginx`);
    } finally {
      await nginx.stop();
    }
  }
  // The shared engines, as several instances run them: durable state in a real PostgreSQL (fsync
  // on), with quotas counted there (contact, keys) or in a real Redis (one round trip per charged
  // request). Contact's row there is server CPU per accepted message, and messages a second.
  for (const engine of SHARED_ENGINES) {
    if (!hasEngine(engine)) continue;
    const running = await startEngine(engine);
    const shared = await startNode(`server-${engine.replaceAll(' ', '-')}`, [SERVER_ENTRY], {
      ...BENCH_SERVER_ENV,
      ...running.env,
      DATA_DIR: path.join(WORK_DIR, `data-${engine.replaceAll(' ', '-')}`),
    });
    try {
      for (const scenario of scenarios.filter((scenario) => scenario.shared))
        await measure(shared, scenario, `${scenario.name} (${engine})`);
    } finally {
      shared.child.kill('SIGTERM');
      await running.stop();
    }
  }
} finally {
  const rss = server.rssMiB();
  server.child.kill('SIGTERM');
  baseline.child.kill('SIGTERM');
  for (const one of clients) one.stop();
  process.stdout.write(
    [
      '',
      `Node ${process.version}. The load generator (autocannon) runs in ${CLIENTS} process${CLIENTS > 1 ? 'es' : ''} of its own; ${RUNS} runs of ${DURATION_SECONDS} s per target, ${CONNECTIONS} connections, medians; latency in ms.`,
      '',
      'The ceiling: the bare baseline on the first target, with the client processes of the run and with one more.',
      '',
      '| clients | baseline req/s | baseline p99 | baseline CPU | CPU of the busiest client |',
      '|---|---|---|---|---|',
      ...ceiling,
      '',
      ceilingVerdict,
      '',
      "CPU: the share of one core the server used during its runs, and the most any client used in any run of the row. µs CPU/req: the server's CPU time per answer (median of the runs), and the CPU ratio: the baseline's over the server's, which is what the req/s ratio becomes when the server has a core to itself; on a busy machine it is the steadier of the two.",
      '',
      '| target | server req/s | baseline req/s | ratio | server p50 | server p99 | baseline p99 | server CPU | client CPU | server µs CPU/req | baseline µs CPU/req | CPU ratio | non-2xx or errors |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      ...(sessions.length > 0 ? [...sessions, ''] : []),
      `Server RSS after the run: ${rss} MiB`,
      '',
      coldLine,
      '',
    ].join('\n'),
  );
}
if (PROFILE_SECONDS > 0) {
  process.stdout.write(
    `Where the time goes: the frames with the most self time, as shares of busy CPU time (${PROFILE_SECONDS} s of each target under --cpu-prof).\n`,
  );
  for (const scenario of scenarios) {
    const frames = await profileTarget([SERVER_ENTRY], BENCH_SERVER_ENV, scenario, PROFILE_SECONDS);
    process.stdout.write(
      `\n${scenario.name}\n${frames.map((hot) => `  ${(hot.share * 100).toFixed(1).padStart(5)} %  ${hot.frame}`).join('\n')}\n`,
    );
  }
}
process.exit(failures > 0 ? 1 : 0);
