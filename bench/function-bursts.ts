import path from 'node:path';
import { contactRequest } from './function-instances.ts';
import type { ConnectionCounter } from './pg-connections.ts';
import { ROOT } from './processes.ts';
import { firstLine } from './spawned.ts';

const BURST_CHILD = path.join(ROOT, 'bench/cold-burst-child.ts');

/** A burst of cold instances, as bench/cold-burst-child.ts reports it, with the peak of the database's connections meanwhile. */
export interface BurstFigures {
  instances: number;
  allAnsweredMs: number;
  /** The CPU time of the process that ran every instance, over the burst: near allAnsweredMs × cores, the CPU was the bottleneck. */
  cpuMs: number;
  peakConnections: number;
  /** How many answers of each kind and status, as "contact 200". */
  statuses: Record<string, number>;
}

/**
 * `count` new function instances at once in a child process of their own (bench/cold-burst-child.ts),
 * on `databaseUrl` (the database itself or a way to it: a proxy), each answering one contact
 * post (`contact`) or by turns a read and a post (`mixed`); `counter` samples the connections throughout.
 */
export async function coldBurst(
  databaseUrl: string,
  counter: ConnectionCounter,
  mode: 'contact' | 'mixed',
  count: number,
): Promise<BurstFigures> {
  const { child, line } = firstLine<Omit<BurstFigures, 'instances' | 'peakConnections'>>(
    [process.execPath, '--import', 'tsx', BURST_CHILD, mode, String(count)],
    { DATABASE_URL: databaseUrl, ACCESS_LOG: 'false' },
    'allAnsweredMs',
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Sampling starts once the child is up: tsx's start is not the burst's.
  const stopSampling = counter.sample();
  try {
    const { value } = await line;
    return { instances: count, ...value, peakConnections: await stopSampling() };
  } finally {
    await stopSampling();
    await exited;
  }
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
