import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ROOT } from './processes.ts';

/**
 * Spawns a process in a group of its own and resolves with its first stdout line that is JSON
 * with `key`, and when that came (from the spawn).
 */
export function firstLine<T = Record<string, number>>(args: string[], env: Record<string, string>, key: string) {
  const started = performance.now();
  const child = spawn(args[0]!, args.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const line = new Promise<{ value: T; atMs: number }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (text) => {
      if (!text.startsWith('{') || !text.includes(`"${key}"`)) return;
      resolve({ value: JSON.parse(text) as T, atMs: performance.now() - started });
    });
  });
  return { child, line };
}

/** Asks `url` until it answers 200; resolves with the milliseconds since `started`. */
export async function untilAnswer(url: string, started: number): Promise<number> {
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

/** Stops a process started in a group of its own (firstLine, spawnWranglerDev), with its children. */
export async function stopGroup(child: {
  pid?: number;
  exitCode: number | null;
  once(event: 'exit', listener: () => void): unknown;
}): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}
