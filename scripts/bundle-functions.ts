import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../functions/config/env.ts';
import { bundleWorker } from '../functions/hosts/cloudflare/bundle.ts';
import { bundleReport, functionBundleOptions, FUNCTIONS_OUT } from '../functions/hosts/fetch/bundle.ts';
import { bundleNetlify } from '../functions/hosts/netlify/bundle.ts';
import { deploysFunctions } from '../functions/hosts/static/function-routes.ts';
import { bundleVercel, leaveOutFilesAtServicePaths } from '../functions/hosts/vercel/bundle.ts';

/**
 * Part of `npm run build`, after the manifest (which it embeds): the service's fetch handler as
 * each function host runs it, under dist/functions (each host's step is in its room under
 * functions/hosts/). Netlify's functions are written only when the build deploys functions
 * (deploysFunctions); otherwise their folder stays empty and the pages' host serves /contact and
 * /search from their files. Writes dist/functions/bundle-report.json: each bundle's size and its
 * largest inputs.
 */
const DIST = 'dist';
const deploys = deploysFunctions(loadConfig());
const common = functionBundleOptions(DIST);

rmSync(FUNCTIONS_OUT, { recursive: true, force: true });
const vercel = await bundleVercel(common);
mkdirSync(`${FUNCTIONS_OUT}/netlify`, { recursive: true });
if (deploys) await bundleNetlify(common, `${FUNCTIONS_OUT}/netlify`);
const worker = await bundleWorker(common);

if (process.env.VERCEL === '1' && deploys) {
  const removed = leaveOutFilesAtServicePaths(`${DIST}/client`);
  process.stdout.write(`function bundles: on Vercel, ${removed} built files at the function's paths left out\n`);
}
writeFileSync(
  `${FUNCTIONS_OUT}/bundle-report.json`,
  `${JSON.stringify([...bundleReport(vercel), ...bundleReport(worker)], null, 2)}\n`,
);
process.stdout.write(
  `function bundles: ${FUNCTIONS_OUT}/{vercel,vercel-cron,cloudflare-worker}.mjs${deploys ? ', netlify/{portfolio,scheduled}.mjs' : ' (no Netlify functions: DATABASE_URL unset, or the dynamic paths proxied)'}\n`,
);
