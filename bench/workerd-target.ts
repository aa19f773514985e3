import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../tests/support/free-port.ts';
import { spawnWranglerDev } from '../tests/support/workerd-host.ts';
import { descendantNamed } from './process-cpu.ts';
import { WORK_DIR } from './processes.ts';
import { stopGroup, untilAnswer } from './spawned.ts';

/** A Worker running in workerd under `wrangler dev`, and the workerd process whose CPU the bench reads. */
export interface WorkerdTarget {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `wrangler dev` on the project's Worker (or the one `config` names) with `vars`, waits
 * for `readyPath` to answer 200, and finds the workerd process under wrangler's, not wrangler's
 * proxy in front of it.
 */
export async function startWorkerd(
  vars: Record<string, string>,
  readyPath: string,
  config?: string,
): Promise<WorkerdTarget> {
  const port = await freePort();
  const state = mkdtempSync(path.join(WORK_DIR, 'wrangler-'));
  const child = spawnWranglerDev(port, vars, state, 'ignore', config);
  const baseUrl = `http://127.0.0.1:${port}`;
  await untilAnswer(`${baseUrl}${readyPath}`, performance.now());
  const pid = descendantNamed(child.pid!, 'workerd');
  if (pid === undefined) throw new Error('no workerd process under wrangler dev');
  return { baseUrl, pid, stop: () => stopGroup(child) };
}
