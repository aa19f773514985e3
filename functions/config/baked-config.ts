import { effectiveValue, loadConfig, type Env } from './env.ts';
import { ENV_VARIABLES, envVariable, type EnvVariable } from './env-variables.ts';

/** The effective value of every variable the build writes into pages and documents, by name. */
export type BakedEnvironment = Partial<Record<EnvVariable, string>>;

export const BAKED_VARIABLES = (Object.keys(ENV_VARIABLES) as EnvVariable[]).filter(
  (variable) => envVariable(variable).baked === true,
);

/** What a build records of its environment (see functions/hosts/static/build-manifest.ts). */
export function bakedEnvironment(env: Env): BakedEnvironment {
  return Object.fromEntries(BAKED_VARIABLES.map((variable) => [variable, effectiveValue(env, variable)]));
}

/**
 * `env` with each baked variable it leaves unset taken from the build: the environment a function
 * bundled with that build runs on (functions/hosts/fetch/built-environment.ts), so a value given
 * once, to the build, need not be given again to the function.
 */
export function withBuiltValues(recorded: BakedEnvironment, env: Env): Env {
  const built = BAKED_VARIABLES.filter((variable) => isUnset(env, variable) && recorded[variable] !== undefined);
  return { ...env, ...Object.fromEntries(built.map((variable) => [variable, recorded[variable]])) };
}

/**
 * The baked variables whose recorded value means something else than the value in `env`.
 * Values are compared by what the configuration makes of them, not as text: `SITE_URL` with or
 * without a trailing slash is one site, `120/60` and ` 120/60` one quota. A variable the build
 * did not record (a build older than the variable) counts as a mismatch.
 */
export function bakedMismatches(recorded: BakedEnvironment, env: Env): BakedMismatch[] {
  const current = JSON.stringify(loadConfig(env));
  return BAKED_VARIABLES.flatMap((variable) => {
    const built = recorded[variable];
    const now = effectiveValue(env, variable);
    if (built !== undefined && (built === now || sameConfig(env, variable, built, current))) return [];
    const nowFrom = isUnset(env, variable) ? envVariable(variable).defaultIn?.(env).from : undefined;
    return [{ variable, built: built ?? '(not recorded)', now, ...(nowFrom === undefined ? {} : { nowFrom }) }];
  });
}

/** A baked variable whose value differs; `nowFrom` names where today's value comes from when the variable is unset. */
export interface BakedMismatch {
  variable: EnvVariable;
  built: string;
  now: string;
  nowFrom?: string;
}

function isUnset(env: Env, variable: EnvVariable): boolean {
  return env[variable] === undefined || env[variable] === '';
}

function sameConfig(env: Env, variable: EnvVariable, built: string, current: string): boolean {
  try {
    return JSON.stringify(loadConfig({ ...env, [variable]: built })) === current;
  } catch {
    return false;
  }
}
