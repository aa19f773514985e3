import { statSync } from 'node:fs';
import path from 'node:path';
import { readEnvFile } from '../config/env-file.ts';
import { loadConfig, type Config } from '../config/env.ts';
import { databaseFile } from '../state/sqlite/database.ts';

/** The option every owner's command takes to read the service's environment file. */
export const ENV_FILE_OPTION = { 'env-file': { type: 'string' } } as const;

/** Where the deploy keeps the service's settings (deploy/systemd/portfolio.service, EnvironmentFile=). */
const DEPLOYED_ENV_FILE = '/etc/portfolio/portfolio.env';

/**
 * A file named on the command line, as the owner meant it: npm runs scripts in the package root,
 * so a relative path is resolved against the directory npm was called from (INIT_CWD).
 */
export function ownersPath(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

/** The service's configuration as an owner's command sees it, and where it came from. */
export interface ServiceConfig {
  config: Config;
  /** The environment file read (an absolute path), or null when only the environment was. */
  envFile: string | null;
}

/**
 * The configuration the service runs with: the environment, and over it the environment file
 * given with `--env-file`, whose values win as they do for the service (systemd's
 * EnvironmentFile= overrides Environment=, and `set -a; . file` overrides what the shell had).
 */
export function loadServiceConfig(envFile: string | undefined, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  if (envFile === undefined) return { config: loadConfig(env), envFile: null };
  const file = ownersPath(envFile);
  return { config: loadConfig({ ...env, ...readEnvFile(file) }), envFile: file };
}

/**
 * Stops a command that reads the service's SQLite state where there is none, rather than let it
 * create an empty database (and answer "No messages.") in the wrong place: the error names the
 * file looked for, where DATA_DIR came from, and how to point the command at the service's.
 * PostgreSQL (DATABASE_URL) is left to the command.
 */
export function requireDatabase({ config, envFile }: ServiceConfig, command: string): void {
  if (config.databaseUrl !== null) return;
  const file = databaseFile(config.dataDir);
  const example = `npm run ${command} -- --env-file ${DEPLOYED_ENV_FILE}`;
  try {
    statSync(file);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES')
      throw new Error(
        `${file} is not readable by this user (permission denied): run the command as the service's user, e.g. sudo -u portfolio ${example}`,
      );
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const source =
    envFile !== null
      ? `from ${envFile}`
      : process.env.DATA_DIR
        ? 'from the environment'
        : 'the default, ./data in the checkout';
  throw new Error(
    `DATA_DIR ${config.dataDir} (${source}) holds no database (${file} does not exist), and none was created. ` +
      `Point the command at the service's state: its environment file (${example}), or DATA_DIR (or DATABASE_URL) as the service has them.`,
  );
}
