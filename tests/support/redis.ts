import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { freePort } from './free-port.ts';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Debian's redis-server, which `.ci/run` installs. */
export const HAS_REDIS = existsSync('/usr/bin/redis-server');

/** A throwaway Redis on loopback: no persistence, its own port and directory. */
export interface ThrowawayRedis {
  url: string;
  port: number;
  /** Stops it, as an outage would. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** SIGSTOP: it keeps its connections open and its port accepting, and answers nothing. */
  pause(): void;
  /** SIGCONT after pause(): it answers what it was sent meanwhile, and then anything else. */
  resume(): void;
}

/** Starts redis-server daemonized (with `extraArgs`); stop() shuts it down by the process id it wrote. */
export async function startRedis(extraArgs: readonly string[] = []): Promise<ThrowawayRedis> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-redis-'));
  const port = await freePort();
  const pidFile = path.join(dir, 'redis.pid');
  const start = async () => {
    await run('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'yes',
      '--dir',
      dir,
      '--pidfile',
      pidFile,
      '--logfile',
      path.join(dir, 'redis.log'),
      ...extraArgs,
    ]);
    // The deadline only catches a server that never starts: a busy machine may take long.
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      const ready = await run('redis-cli', ['-p', String(port), 'ping']).then(
        ({ stdout }) => stdout.trim() === 'PONG',
        () => false,
      );
      if (ready) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  const stop = async () => {
    if (!existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await run('redis-cli', ['-p', String(port), 'shutdown', 'nosave']).catch(() => undefined);
    // Wait until the process is gone, so the port is free for start().
    for (let tries = 0; tries < 200; tries++) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    execFileSync('kill', ['-9', String(pid)]);
  };
  const signal = (name: NodeJS.Signals) => process.kill(Number(readFileSync(pidFile, 'utf8')), name);
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
  };
}
