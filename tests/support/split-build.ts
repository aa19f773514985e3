import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { bakedEnvironment } from '../../functions/config/baked-config.ts';
import { BUILD_MANIFEST_FILE, type BuildManifest } from '../../functions/hosts/static/build-manifest.ts';
import { ASTRO_CLI, ROOT } from './server.ts';

const run = promisify(execFile);

/**
 * The steps of `npm run build` that make the pages, for an environment of the test's own
 * (SITE_URL and API_ORIGIN naming ports it chose), into a folder of its own so that dist/ stays
 * the default build the other tests use. The folder is under node_modules/.cache: Astro's
 * prerendering resolves packages from where its output lies. Precompression and the server
 * bundle are left out: the test serves the files as they are and runs the service in process.
 * `hostRules` adds the static hosts' files (_headers, _redirects, vercel.json: scripts/host-rules.ts).
 */
export async function buildFor(
  env: Record<string, string>,
  name: string,
  { hostRules = false }: { hostRules?: boolean } = {},
): Promise<string> {
  const dist = path.join(ROOT, 'node_modules/.cache', name);
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  // Astro run under Vitest's variable behaves as embedded in a test runner; an owner's shell has none.
  const { VITEST: _underVitest, ...owner } = process.env;
  const environment = { ...owner, ...env };
  const options = { cwd: ROOT, env: environment, maxBuffer: 64 * 1024 * 1024 };
  await run(process.execPath, [ASTRO_CLI, 'build', '--outDir', dist], options);
  await run(process.execPath, ['--import', 'tsx', 'scripts/write-static-pages.ts', dist], options);
  if (hostRules)
    await run(process.execPath, ['--import', 'tsx', 'scripts/host-rules.ts', path.join(dist, 'client')], options);
  const manifest: BuildManifest = {
    builtAt: new Date().toISOString(),
    sourceHash: '',
    environment: bakedEnvironment(environment),
  };
  writeFileSync(path.join(dist, BUILD_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return dist;
}
