import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { wranglerDev } from '../functions/hosts/cloudflare/wrangler.ts';
import { freePort } from '../tests/support/free-port.ts';
import { descendantNamed } from './process-cpu.ts';
import { ROOT, WORK_DIR } from './processes.ts';
import { stopGroup, untilAnswer } from './spawned.ts';

/** An answer as a bare Worker gives it to every request. */
export interface FixedAnswer {
  body: string;
  headers: Record<string, string>;
}

/**
 * The Worker baseline: a Worker that answers every request with `answer` and does nothing else,
 * in `wrangler dev`'s workerd as the service's Worker runs, so that the service's CPU per request
 * there is read against what workerd itself costs per request on this machine (the bare node:http
 * baseline's part in `npm run bench`).
 */
export async function startBareWorker(answer: FixedAnswer) {
  const dir = mkdtempSync(path.join(WORK_DIR, 'bare-worker-'));
  writeFileSync(
    path.join(dir, 'worker.mjs'),
    `const body = ${JSON.stringify(answer.body)};\nconst headers = ${JSON.stringify(answer.headers)};\n` +
      'export default { fetch: () => new Response(body, { headers }) };\n',
  );
  // The service's compatibility lines (wrangler.toml), so that only the code differs.
  const compatibility = readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('compatibility_'));
  writeFileSync(
    path.join(dir, 'wrangler.toml'),
    ['name = "bare"', 'main = "worker.mjs"', ...compatibility, ''].join('\n'),
  );
  const port = await freePort();
  const run = wranglerDev(ROOT, { ip: '127.0.0.1', port, persistTo: path.join(dir, 'state') });
  const child = spawn(run.command, [...run.args, '--config', path.join(dir, 'wrangler.toml')], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, ...run.env, WRANGLER_LOG_PATH: dir, NO_COLOR: '1', CI: '1' },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await untilAnswer(baseUrl, performance.now());
  const pid = descendantNamed(child.pid!, 'workerd');
  if (pid === undefined) throw new Error('no workerd process under wrangler dev');
  return { baseUrl, pid, stop: () => stopGroup(child) };
}
