/**
 * Where a target's time goes: the server is started once more under `--cpu-prof`, driven with the
 * target alone, and stopped; the profile's frames with the most self time are listed. Idle time,
 * the garbage collector and node's own bookkeeping are shown as what they are, not hidden.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startClient } from './load-client.ts';
import { startNode, WORK_DIR } from './processes.ts';
import type { Scenario } from './scenarios.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds, on the profiler's own clock. */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One line of the summary: a frame and its share of the busy (non-idle) time. */
export interface HotFrame {
  frame: string;
  share: number;
}

/** Frames that are not code of anyone's: time the process spent waiting, not working. */
const NOT_WORK = new Set(['(idle)']);

/**
 * The `count` frames with the most self time in the last `windowSeconds` of a profile (the
 * traffic, not the start-up before it), as shares of the time spent working.
 */
export function hotFrames(profile: CpuProfile, count: number, windowSeconds: number): HotFrame[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const from = profile.endTime - windowSeconds * 1e6;
  const selfTime = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    const node = byId.get(id);
    if (at < from || node === undefined || NOT_WORK.has(node.callFrame.functionName)) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const file =
      url === ''
        ? ''
        : ` ${url.replace(/^.*\/(node_modules|functions|dist)\//, '$1/').replace(/^node:/, 'node:')}:${lineNumber + 1}`;
    const frame = `${functionName || '(anonymous)'}${file}`;
    const delta = profile.timeDeltas[index] ?? 0;
    selfTime.set(frame, (selfTime.get(frame) ?? 0) + delta);
    busy += delta;
  });
  return [...selfTime]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, time]) => ({ frame, share: time / busy }));
}

/**
 * Profiles one target: a fresh server under `--cpu-prof` takes `seconds` of the target's
 * traffic, then SIGINT makes it drain and write its profile.
 */
export async function profileTarget(
  serverArgs: string[],
  env: Record<string, string>,
  scenario: Scenario,
  seconds: number,
  count = 8,
): Promise<HotFrame[]> {
  const dir = mkdtempSync(path.join(WORK_DIR, 'profile-'));
  const server = await startNode(`profile-${dir.slice(-6)}`, ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...serverArgs], {
    ...env,
    DATA_DIR: path.join(dir, 'data'),
  });
  const client = await startClient();
  try {
    await client.fire({ port: server.port, scenario: scenario.name, connections: 50, seconds });
  } finally {
    client.stop();
  }
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGINT');
  await exited;
  // A module loader may run in a worker thread with a profile of its own; the main thread works the most.
  const profiles = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as CpuProfile)
    .sort((a, b) => busyTime(b) - busyTime(a));
  if (profiles[0] === undefined) throw new Error(`no profile was written for ${scenario.name}`);
  return hotFrames(profiles[0], count, seconds);
}

/** Microseconds a profile spent outside `(idle)`. */
function busyTime(profile: CpuProfile): number {
  const idle = new Set(
    profile.nodes.filter((node) => NOT_WORK.has(node.callFrame.functionName)).map((node) => node.id),
  );
  return profile.samples.reduce((sum, id, index) => sum + (idle.has(id) ? 0 : (profile.timeDeltas[index] ?? 0)), 0);
}
