import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ROOT } from './processes.ts';
import type { FireOrder, Sample } from './client.ts';

/** A load generator running in its own process (`bench/client.ts`); one measurement at a time. */
export interface LoadClient {
  fire(order: FireOrder): Promise<Sample>;
  stop(): void;
}

type Reply = { ready: true } | { sample: Sample } | { error: string };

export async function startClient(): Promise<LoadClient> {
  const child: ChildProcess = fork('bench/client.ts', [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<Reply>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the load client exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (reply: Reply) => {
        child.off('exit', onExit);
        resolve(reply);
      });
    });
  await next();
  return {
    async fire(order) {
      const reply = next();
      child.send(order);
      const answer = await reply;
      if ('error' in answer) throw new Error(`the load client failed: ${answer.error}`);
      if (!('sample' in answer)) throw new Error('the load client answered out of turn');
      return answer.sample;
    },
    stop() {
      child.kill('SIGTERM');
    },
  };
}

/** CPU time (user + system) a process has used so far, in seconds, from /proc (Linux). */
export function cpuSeconds(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, counted after the parenthesised command name.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
