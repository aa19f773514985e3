import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnvFile } from '../../config/env-file.ts';

/**
 * Where the owner keeps a function deployment's values on their own machine, the first that
 * exists: `.dev.vars`, which `wrangler dev` reads (.dev.vars.example lists what goes in it), then
 * `.env`, which `netlify dev` reads. Both are in .gitignore.
 */
const OWNER_ENV_FILES = ['.dev.vars', '.env'] as const;

/** The owner's values for a rehearsal or a deploy, and the file they came from. */
export interface OwnerEnv {
  /** The file read, or null when none exists (the values are then the environment's alone). */
  file: string | null;
  /** The environment over the file: a variable set in the shell wins, as wrangler's `--secrets-file` has it. */
  env: Record<string, string | undefined>;
}

/**
 * Reads `explicit` (a path given with `--env-file`, which must exist), else the first of
 * OWNER_ENV_FILES under `root`, in the format systemd and the shell share
 * (functions/config/env-file.ts), and lays `environment` over it.
 */
export function readOwnerEnv(
  root: string,
  explicit: string | undefined,
  environment: Record<string, string | undefined> = process.env,
): OwnerEnv {
  const file =
    explicit === undefined
      ? (OWNER_ENV_FILES.map((name) => path.join(root, name)).find((candidate) => existsSync(candidate)) ?? null)
      : path.resolve(root, explicit);
  if (file !== null && !existsSync(file)) throw new Error(`${file} does not exist`);
  const values = file === null ? {} : parseEnvFile(readFileSync(file, 'utf8'), file);
  const set = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  return { file, env: { ...values, ...set } };
}

/** Stops with a line saying where to put DATABASE_URL when neither the file nor the environment has it. */
export function requireDatabaseUrl({ file, env }: OwnerEnv, command: string): string {
  const url = env.DATABASE_URL;
  if (url !== undefined && url !== '') return url;
  throw new Error(
    `${command} needs DATABASE_URL: put it in ${file ?? OWNER_ENV_FILES.join(' or ')} (cp .dev.vars.example .dev.vars) or set it in the environment`,
  );
}
