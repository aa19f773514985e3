import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../functions/config/env.ts';
import { builtEnvironment, mismatchLine, redeployAdvice } from '../functions/hosts/fetch/built-environment.ts';
import { BUILD_MANIFEST_FILE, type BuildManifest } from '../functions/hosts/static/build-manifest.ts';

/**
 * The deploy step's check, before `wrangler deploy`, `netlify deploy` or `vercel deploy`: whether
 * the functions bundled in the build (dist/, or the folder given) would serve with this
 * environment, judged as a function judges it (functions/hosts/fetch/built-environment.ts): a
 * baked variable left unset takes the build's value, one set must mean what the build meant.
 * Run it with the variables the deployment gives the function (`node --env-file=<file>` reads
 * them from a file). Exits 0 with one line saying what the build is for; otherwise 1 with one
 * line naming each variable, the build's value and this environment's, and what to do. It is the
 * functions' counterpart of the Node server's `node dist/server/portfolio.mjs --check`.
 *
 *   node --import tsx scripts/check-deploy.ts [dist]
 */
const dist = path.resolve(process.argv[2] ?? 'dist');
const manifestFile = path.join(dist, BUILD_MANIFEST_FILE);

function refuse(reason: string): never {
  process.stderr.write(`deploy check: ${reason}\n`);
  process.exit(1);
}

if (!existsSync(manifestFile))
  refuse(
    `no build in ${path.relative(process.cwd(), dist) || '.'} (${BUILD_MANIFEST_FILE} is missing): run npm run build first.`,
  );
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BuildManifest;
let mismatches;
try {
  ({ mismatches } = builtEnvironment(manifest, process.env));
} catch (error) {
  if (error instanceof ConfigError) refuse(error.message);
  throw error;
}
if (mismatches.length > 0)
  refuse(
    `the build was made for other values than this environment sets: ${mismatchLine(mismatches)}. ${redeployAdvice(mismatches)}`,
  );
process.stdout.write(
  `deploy check: the build (${manifest.builtAt}) is for SITE_URL=${manifest.environment.SITE_URL ?? ''}, and this environment agrees.\n`,
);
