import path from 'node:path';
import { builtSiteUrl } from '../static/built-site-url.ts';
import { readOwnerEnv, requireDatabaseUrl } from '../static/owner-env.ts';
import { runOwnerStep } from '../static/owner-step.ts';
import { wranglerDeploy } from './wrangler.ts';

/** Runs one step in the checkout, its output shown as it comes; stops the deploy when it fails. */
function run(root: string, title: string, command: string, args: string[], env: Record<string, string | undefined>) {
  runOwnerStep(root, 'deploy:cloudflare', { title, command, args, env }, 'nothing was deployed');
}

/**
 * `npm run deploy:cloudflare`: the Worker deployed with one SITE_URL, in the order that keeps a
 * live site working.
 * 1. `npm run migrate`, with DATABASE_URL from the shell or the owner's file (.dev.vars, else
 *    .env): the Worker only checks the schema, so the database must be current before it runs.
 * 2. `CF_PAGES=1 npm run build` (Cloudflare's header rules), with the file's values under the
 *    shell's, so the build bakes what the owner set (SITE_URL among them, else content/site.json's).
 * 3. `wrangler deploy`, with the build's SITE_URL as the Worker's (`--var`, over wrangler.toml's
 *    `[vars]`): the pages and the Worker name one address. Secrets stay where the Deploy to
 *    Cloudflare button or `npx wrangler secret put` put them.
 * With `dryRun`, step 3 is `wrangler deploy --dry-run --outdir <dir>`: the Worker is bundled
 * and checked, nothing is uploaded (steps 1 and 2 run as they would: a migration ahead of the
 * deployed Worker is one it accepts).
 */
export function deployCloudflare(root: string, options: { envFile?: string; dryRun: { outdir: string } | null }): void {
  const owner = readOwnerEnv(root, options.envFile);
  requireDatabaseUrl(owner, 'npm run deploy:cloudflare');
  const env = { ...owner.env, NO_UPDATE_NOTIFIER: '1' };
  process.stdout.write(`deploy:cloudflare: values from ${owner.file ?? 'the environment'}\n`);
  run(root, 'npm run migrate', 'npm', ['run', 'migrate'], env);
  run(root, 'CF_PAGES=1 npm run build', 'npm', ['run', 'build'], { ...env, CF_PAGES: '1' });
  // Between the build and the upload: a build whose baked values (dist/build-manifest.json) differ
  // from what the Worker will be given is refused here, not answered 503 after the upload.
  run(root, 'npm run check:deploy', 'npm', ['run', '--silent', 'check:deploy'], env);
  const siteUrl = builtSiteUrl(path.join(root, 'dist'));
  if (siteUrl === null) throw new Error('the build wrote no dist/build-manifest.json; nothing was deployed');
  const deploy = wranglerDeploy(root, { vars: { SITE_URL: siteUrl }, dryRun: options.dryRun });
  run(
    root,
    `wrangler deploy${options.dryRun === null ? '' : ' --dry-run'} (SITE_URL ${siteUrl})`,
    deploy.command,
    deploy.args,
    { ...env, ...deploy.env },
  );
  process.stdout.write(
    options.dryRun === null
      ? `deploy:cloudflare: deployed, for ${siteUrl}\n`
      : `deploy:cloudflare: dry run done, nothing uploaded; the Worker as wrangler would upload it is in ${options.dryRun.outdir}\n`,
  );
}
