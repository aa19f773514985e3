import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { bakedEnvironment } from '../functions/config/baked-config.ts';
import { loadConfig } from '../functions/config/env.ts';
import { ENV_VARIABLES } from '../functions/config/env-variables.ts';
import { BUILD_MANIFEST_FILE, type BuildManifest } from '../functions/hosts/static/build-manifest.ts';
import { sourceHash } from './source-hash.mjs';

/**
 * The last step of `npm run build`: records what the build was made from (dist/build-manifest.json),
 * so the server can refuse a build made for another configuration and `npm start` can skip a
 * build that still matches.
 */
loadConfig();
const manifest: BuildManifest = {
  builtAt: new Date().toISOString(),
  sourceHash: sourceHash(process.cwd()),
  environment: bakedEnvironment(process.env),
};
writeFileSync(path.join('dist', BUILD_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
const unset = process.env.SITE_URL === undefined || process.env.SITE_URL === '';
const source = unset ? ` (SITE_URL unset: the ${ENV_VARIABLES.SITE_URL.defaultIn(process.env).from})` : '';
process.stdout.write(
  `manifest: dist/${BUILD_MANIFEST_FILE} for SITE_URL=${manifest.environment.SITE_URL ?? ''}${source}\n`,
);
