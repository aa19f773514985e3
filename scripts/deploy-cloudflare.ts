import path from 'node:path';
import { deployCloudflare } from '../functions/hosts/cloudflare/deploy.ts';
import { CHECKOUT as root, failOwnerCommand, ownerOptions } from './owner-command.ts';

const USAGE = `Usage: npm run deploy:cloudflare [-- --dry-run [--outdir <dir>]] [-- --env-file <file>]

Migrates the database (DATABASE_URL from the shell, else .dev.vars, else .env), builds with
CF_PAGES=1, and deploys the Worker with the build's SITE_URL. --dry-run does all but the upload:
wrangler bundles and checks the Worker into --outdir (default dist/cloudflare-dry-run).
(functions/hosts/cloudflare/deploy.ts)`;

const values = ownerOptions(USAGE, {
  'dry-run': { type: 'boolean' },
  outdir: { type: 'string', default: 'dist/cloudflare-dry-run' },
  'env-file': { type: 'string' },
});
try {
  deployCloudflare(root, {
    dryRun: values['dry-run'] === true ? { outdir: path.resolve(root, values.outdir) } : null,
    ...(values['env-file'] === undefined ? {} : { envFile: values['env-file'] }),
  });
} catch (error) {
  failOwnerCommand('deploy:cloudflare', error);
}
