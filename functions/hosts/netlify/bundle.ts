import { writeFileSync } from 'node:fs';
import { build, type BuildOptions } from 'esbuild';
import { netlifyFunctionPaths } from '../static/function-routes.ts';
import { SCHEDULED_PASS_CRON } from '../static/scheduled-pass.ts';

const NETLIFY_FUNCTIONS = [
  { name: 'portfolio', entry: 'functions/hosts/netlify/function.ts', config: { path: netlifyFunctionPaths() } },
  // Netlify docs, "Scheduled Functions" (cron syntax, UTC).
  { name: 'scheduled', entry: 'functions/hosts/netlify/scheduled.ts', config: { schedule: SCHEDULED_PASS_CRON } },
];

/**
 * Netlify's functions under `dir`, each a folder (Netlify docs, "Functions" > "Get started": a
 * subdirectory whose entry file has its name) holding the bundle and an entry whose `config` is
 * a literal `export const config = {...}`, the one form Netlify reads without running the file
 * ("Functions" > "Configuration"), and which the bundle, having a `config` of its own at the top
 * level, cannot carry.
 */
export async function bundleNetlify(common: BuildOptions, dir: string): Promise<void> {
  await Promise.all(
    NETLIFY_FUNCTIONS.map(async ({ name, entry, config }) => {
      const functionDir = `${dir}/${name}`;
      await build({
        ...common,
        entryPoints: { service: entry },
        outdir: functionDir,
        platform: 'node',
        target: 'node20',
      });
      const shim = [
        '// Made by npm run build (scripts/bundle-functions.ts); do not edit.',
        "import service from './service.mjs';",
        'export default service;',
        `export const config = ${JSON.stringify(config)};`,
      ];
      writeFileSync(`${functionDir}/${name}.mjs`, `${shim.join('\n')}\n`);
    }),
  );
}
