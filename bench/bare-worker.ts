import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, WORK_DIR } from './processes.ts';
import { startWorkerd, type WorkerdTarget } from './workerd-target.ts';

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
export function startBareWorker(answer: FixedAnswer): Promise<WorkerdTarget> {
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
  return startWorkerd({}, '/', path.join(dir, 'wrangler.toml'));
}
