import path from 'node:path';

/** A wrangler run: the program, its arguments and the environment it adds. */
export interface WranglerRun {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * What makes wrangler work offline: no telemetry, and no fetch of the `Request.cf` object, which
 * `wrangler dev` otherwise tries at start (CLOUDFLARE_CF_FETCH_ENABLED, read by miniflare).
 */
const OFFLINE_ENV = { WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

const wranglerBin = (root: string) => path.join(root, 'node_modules/.bin/wrangler');

/**
 * `wrangler dev` on the built Worker and static assets (wrangler.toml) in workerd on this
 * machine (`--local`), on `ip`:`port`, with its local state in `persistTo`, `--var`s for `vars`
 * and the variables of `envFile` (`--env-file`), and `/__scheduled` to run the Cron Trigger.
 */
export function wranglerDev(
  root: string,
  options: {
    ip: string;
    port: number;
    persistTo: string;
    vars?: Record<string, string>;
    envFile?: string | null;
    /** Another Worker's wrangler.toml than the project's (the bench's bare Worker). */
    config?: string;
  },
): WranglerRun {
  return {
    command: wranglerBin(root),
    args: [
      'dev',
      '--local',
      '--ip',
      options.ip,
      '--port',
      String(options.port),
      '--persist-to',
      options.persistTo,
      '--test-scheduled',
      '--show-interactive-dev-session=false',
      ...(options.envFile === undefined || options.envFile === null ? [] : ['--env-file', options.envFile]),
      ...(options.config === undefined ? [] : ['--config', options.config]),
      ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
    ],
    env: OFFLINE_ENV,
  };
}

/**
 * `wrangler deploy` of the built Worker with `vars` as `--var`s; with `dryRun`, wrangler bundles
 * it into `outdir` and checks it without uploading anything.
 */
export function wranglerDeploy(
  root: string,
  options: { vars: Record<string, string>; dryRun: { outdir: string } | null },
): WranglerRun {
  return {
    command: wranglerBin(root),
    args: [
      'deploy',
      ...Object.entries(options.vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
      ...(options.dryRun === null ? [] : ['--dry-run', '--outdir', options.dryRun.outdir]),
    ],
    env: { WRANGLER_SEND_METRICS: 'false' },
  };
}
