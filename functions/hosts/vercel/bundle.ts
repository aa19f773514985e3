import { rmSync } from 'node:fs';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { filesAtServicePaths } from '../static/function-routes.ts';

/** Vercel's function and its cron target on the Node.js runtime (api/*.mjs re-export them). */
export async function bundleVercel(common: BuildOptions): Promise<Metafile | undefined> {
  const result = await build({
    ...common,
    entryPoints: { vercel: 'functions/hosts/vercel/function.ts', 'vercel-cron': 'functions/hosts/vercel/cron.ts' },
    platform: 'node',
    target: 'node20',
  });
  return result.metafile;
}

/**
 * On Vercel (which sets VERCEL=1 in its builds: Vercel docs, "System environment variables") a
 * file wins over a rewrite (vercel/vercel, packages/routing-utils, getTransformedRoutes: the
 * filesystem is checked before the rewrites), so the built files at the function's paths (the
 * /contact and /search pages the function fills in) leave the output, else the function would
 * never see their requests. Returns how many left.
 */
export function leaveOutFilesAtServicePaths(clientDir: string): number {
  const removed = filesAtServicePaths(clientDir);
  for (const file of removed) rmSync(file);
  return removed.length;
}
