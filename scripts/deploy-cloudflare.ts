import path from 'node:path';
import { parseArgs } from 'node:util';
import { deployCloudflare } from '../functions/hosts/cloudflare/deploy.ts';

const USAGE = `Usage: npm run deploy:cloudflare [-- --dry-run [--outdir <dir>]] [-- --env-file <file>]

Migrates the database (DATABASE_URL from the shell, else .dev.vars, else .env), builds with
CF_PAGES=1, and deploys the Worker with the build's SITE_URL. --dry-run does all but the upload:
wrangler bundles and checks the Worker into --outdir (default dist/cloudflare-dry-run).
(functions/hosts/cloudflare/deploy.ts)`;

const { values } = parseArgs({
  options: {
    'dry-run': { type: 'boolean' },
    outdir: { type: 'string', default: 'dist/cloudflare-dry-run' },
    'env-file': { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help === true) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const root = path.resolve(import.meta.dirname, '..');
try {
  deployCloudflare(root, {
    dryRun: values['dry-run'] === true ? { outdir: path.resolve(root, values.outdir) } : null,
    ...(values['env-file'] === undefined ? {} : { envFile: values['env-file'] }),
  });
} catch (error) {
  process.stderr.write(`deploy:cloudflare: ${(error as Error).message}\n`);
  process.exit(1);
}
