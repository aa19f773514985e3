import { existsSync } from 'node:fs';
import path from 'node:path';
import { ENV_VARIABLES } from '../../config/env-variables.ts';
import { builtSiteUrl } from '../static/built-site-url.ts';
import { readOwnerEnv, requireDatabaseUrl } from '../static/owner-env.ts';
import { wranglerDev, type WranglerRun } from './wrangler.ts';

/** The Worker as `npm run build` bundles it (wrangler.toml `main`). */
const WORKER = 'dist/functions/cloudflare-worker.mjs';

/** What `npm run preview:cloudflare` runs, and what it says first. */
export interface CloudflarePreview {
  run: WranglerRun;
  lines: string[];
}

/**
 * The owner's rehearsal of a Cloudflare deployment: the built Worker and its assets in workerd
 * on this machine (`wrangler dev --local`, offline), with the owner's file (`.dev.vars`, else
 * `.env`: static/owner-env.ts) as its variables and secrets, so against the owner's own
 * database. The Worker gets the build's SITE_URL unless the file or the shell names one, so the
 * pages and the Worker agree. Variables set in the shell for the service go on top, as `--var`.
 */
export function cloudflarePreview(
  root: string,
  options: { envFile?: string; ip: string; port: number },
): CloudflarePreview {
  const owner = readOwnerEnv(root, options.envFile);
  requireDatabaseUrl(owner, 'npm run preview:cloudflare');
  if (!existsSync(path.join(root, WORKER)))
    throw new Error(`no built Worker (${WORKER}): run \`CF_PAGES=1 npm run build\` first`);
  const siteUrl = owner.env.SITE_URL ?? builtSiteUrl(path.join(root, 'dist'));
  const fromShell = Object.fromEntries(
    Object.keys(ENV_VARIABLES)
      .filter((name) => process.env[name] !== undefined && process.env[name] !== '')
      .map((name) => [name, process.env[name]!]),
  );
  const vars = { ...(siteUrl === null ? {} : { SITE_URL: siteUrl }), ...fromShell };
  return {
    run: wranglerDev(root, {
      ip: options.ip,
      port: options.port,
      persistTo: path.join(root, '.wrangler/state'),
      envFile: owner.file,
      vars,
    }),
    lines: [
      `preview:cloudflare: the built Worker and dist/client in workerd, on http://${options.ip}:${options.port}`,
      `  variables: ${owner.file ?? 'the environment (no .dev.vars or .env)'}${siteUrl === null ? '' : `; SITE_URL ${siteUrl}`}`,
      `  the scheduled pass: http://${options.ip}:${options.port}/__scheduled`,
      '  a 503 storage_unavailable naming `npm run migrate` means the database needs `npm run migrate` with the same DATABASE_URL',
    ],
  };
}
