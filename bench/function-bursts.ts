import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { contactRequest } from './function-instances.ts';
import type { ConnectionCounter } from './pg-connections.ts';
import { ROOT } from './processes.ts';

const BURST_CHILD = path.join(ROOT, 'bench/cold-burst-child.ts');

/** A burst of cold instances, as the bench/cold-burst-child.ts processes report it, with the peak of the database's connections meanwhile. */
export interface BurstFigures {
  instances: number;
  /** How many processes ran them, one per core, so that the machine's every core runs instances. */
  processes: number;
  /** From the go to the last answer: the longest of the processes' own times. */
  allAnsweredMs: number;
  /** The CPU time of the processes that ran the instances, over the burst: near allAnsweredMs × processes, the CPU was the bottleneck. */
  cpuMs: number;
  peakConnections: number;
  /** How many answers of each kind and status, as "contact 200". */
  statuses: Record<string, number>;
}

type ChildFigures = Pick<BurstFigures, 'allAnsweredMs' | 'cpuMs' | 'statuses'>;

/** One bench/cold-burst-child.ts process, loaded and waiting: `go()` starts its instances and resolves with what it reports. */
async function burstChild(databaseUrl: string, mode: string, first: number, count: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', BURST_CHILD, mode, String(first), String(count)], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, ACCESS_LOG: 'false' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines: ((value: Record<string, unknown>) => void)[] = [];
  const next = () => new Promise<Record<string, unknown>>((resolve) => lines.push(resolve));
  const ready = next();
  const report = next();
  createInterface({ input: child.stdout }).on('line', (text) => {
    if (text.startsWith('{"ready"') || text.startsWith('{"allAnsweredMs"')) lines.shift()?.(JSON.parse(text));
  });
  await Promise.race([
    ready,
    exited.then(() => Promise.reject(new Error('a cold-burst child exited before it was ready'))),
  ]);
  return {
    go: async () => {
      child.stdin.end('go\n');
      const figures = (await Promise.race([report, exited])) as ChildFigures | undefined;
      if (figures === undefined) throw new Error('a cold-burst child exited without its figures');
      await exited;
      return figures;
    },
  };
}

/**
 * `count` new function instances at once, spread over one child process per core
 * (bench/cold-burst-child.ts), on `databaseUrl` (the database itself or a way to it: a proxy),
 * each answering one contact post (`contact`) or by turns a read and a post (`mixed`); `counter`
 * samples the connections throughout. The processes load first and start together.
 */
export async function coldBurst(
  databaseUrl: string,
  counter: ConnectionCounter,
  mode: 'contact' | 'mixed',
  count: number,
): Promise<BurstFigures> {
  const processes = Math.min(count, cpus().length);
  const share = Math.ceil(count / processes);
  const children = await Promise.all(
    Array.from({ length: processes }, (_, index) =>
      burstChild(databaseUrl, mode, index * share, Math.min(share, count - index * share)),
    ),
  );
  const stopSampling = counter.sample();
  let reports: ChildFigures[];
  try {
    reports = await Promise.all(children.map((child) => child.go()));
  } finally {
    await stopSampling();
  }
  const statuses: Record<string, number> = {};
  for (const report of reports)
    for (const [status, times] of Object.entries(report.statuses)) statuses[status] = (statuses[status] ?? 0) + times;
  return {
    instances: count,
    processes,
    allAnsweredMs: Math.max(...reports.map((report) => report.allAnsweredMs)),
    cpuMs: reports.reduce((sum, report) => sum + report.cpuMs, 0),
    peakConnections: await stopSampling(),
    statuses: Object.fromEntries(Object.entries(statuses).sort()),
  };
}

/**
 * The connections one warm instance (a server at `baseUrl` on the database `counter` counts)
 * holds while it answers `burst` contact posts at once, at the most, and one second after the
 * last answer, when it has nothing left to do.
 */
export async function connectionsOfWarmInstance(
  baseUrl: string,
  counter: ConnectionCounter,
  burst: number,
): Promise<{ peak: number; idle: number }> {
  const post = async (index: number) => {
    const response = await fetch(contactRequest(`Connections ${index}`, baseUrl));
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`contact answered ${response.status}`);
  };
  await post(-1);
  const stopSampling = counter.sample();
  await Promise.all(Array.from({ length: burst }, (_, index) => post(index)));
  const peak = await stopSampling();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return { peak, idle: await counter.now() };
}
