import path from 'node:path';
import { cpuSeconds, startClient } from './load-client.ts';
import { BENCH_SERVER_ENV, startNode, WORK_DIR } from './processes.ts';
import { scenarios } from './scenarios.ts';

/**
 * `node --import tsx bench/ab.ts OTHER_ENTRY [runs] [seconds]`: the built server beside another
 * build of it (say, the previous commit's `dist/server/portfolio.mjs` copied aside), in
 * alternating runs of each target (BENCH_ONLY picks them); prints the median req/s of each, the
 * server CPU time per request (less sensitive than req/s to what else the machine runs) and their
 * ratios. For judging one change on a machine too busy for absolute figures.
 */
const other = process.argv[2];
if (other === undefined) throw new Error('usage: bench/ab.ts OTHER_ENTRY [runs] [seconds]');
const runs = Number(process.argv[3] ?? 5);
const seconds = Number(process.argv[4] ?? 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const client = await startClient();
const servers = await Promise.all(
  [other, 'dist/server/portfolio.mjs'].map((entry, index) =>
    startNode(`ab-${index}`, [entry], { ...BENCH_SERVER_ENV, DATA_DIR: path.join(WORK_DIR, `ab-${index}`) }),
  ),
);
try {
  for (const scenario of scenarios) {
    const rps: number[][] = [[], []];
    const p99: number[][] = [[], []];
    const cpu: number[][] = [[], []];
    for (const server of servers)
      await client.fire({ port: server.port, scenario: scenario.name, connections: 50, seconds: 1 });
    for (let run = 0; run < runs; run++) {
      for (const [index, server] of servers.entries()) {
        const cpuBefore = cpuSeconds(server.child.pid!);
        const sample = await client.fire({ port: server.port, scenario: scenario.name, connections: 50, seconds });
        cpu[index]!.push(((cpuSeconds(server.child.pid!) - cpuBefore) * 1e6) / (sample.rps * seconds));
        rps[index]!.push(sample.rps);
        p99[index]!.push(sample.p99);
      }
    }
    const [before, after] = rps.map(median) as [number, number];
    const [cpuBefore, cpuAfter] = cpu.map(median) as [number, number];
    console.log(
      `${scenario.name}: other ${Math.round(before)} req/s (p99 ${median(p99[0]!)} ms, ${cpuBefore.toFixed(1)} µs CPU per request), this ${Math.round(after)} req/s (p99 ${median(p99[1]!)} ms, ${cpuAfter.toFixed(1)} µs), ${(after / before).toFixed(2)}x req/s, ${(cpuAfter / cpuBefore).toFixed(2)}x CPU per request`,
    );
  }
} finally {
  for (const server of servers) server.child.kill('SIGTERM');
  client.stop();
}
