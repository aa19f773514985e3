import { bakedMismatches, withBuiltValues, type BakedMismatch } from '../../config/baked-config.ts';
import type { Env } from '../../config/env.ts';
import type { BuildManifest } from '../static/build-manifest.ts';

/** What a function runs on, given the build it was bundled with. */
export interface BuiltEnvironment {
  /** The host's environment, with the build's value of each baked variable it leaves unset. */
  env: Env;
  /** The baked variables the host's environment sets to something else than the build used. */
  mismatches: readonly BakedMismatch[];
}

/**
 * A function takes SITE_URL, the quotas and every other baked variable from the build it was
 * bundled with (dist/build-manifest.json, embedded as BuildData) unless its own environment sets
 * them: the value given to the build (or defaulted there from the host's own address variable,
 * functions/config/site-url.ts) is not typed a second time into the host's settings. A value the
 * host does set must mean what the build meant, since the pages and documents already publish
 * the build's. The function (create-fetch-handler.ts) and the deploy check
 * (scripts/check-deploy.ts) both judge by this.
 */
export function builtEnvironment(manifest: BuildManifest, hostEnv: Env): BuiltEnvironment {
  const env = withBuiltValues(manifest.environment, hostEnv);
  return { env, mismatches: bakedMismatches(manifest.environment, env) };
}

/** The mismatches in one line: each variable, the build's value and the environment's. */
export function mismatchLine(mismatches: readonly BakedMismatch[]): string {
  return mismatches
    .map(({ variable, built, now }) => `${variable} built with ${JSON.stringify(built)}, set to ${JSON.stringify(now)}`)
    .join('; ');
}

/** What to do about them, in one sentence naming each variable and the value to rebuild with. */
export function redeployAdvice(mismatches: readonly BakedMismatch[]): string {
  const values = mismatches.map(({ variable, now }) => `${variable}=${JSON.stringify(now)}`).join(' ');
  const names = mismatches.map(({ variable }) => variable).join(', ');
  return `Rebuild and redeploy with ${values} (\`${values} npm run build\`, then deploy), or remove ${names} from the function's environment to serve the build's values.`;
}
