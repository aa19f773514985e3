import { parseArgs } from 'node:util';
import { ENV_FILE_OPTION, ownersPath } from '../service-config.ts';

/**
 * PostgreSQL's own backup, as backup and restore point to it: under umask 077, since pg_dump
 * writes a file everyone may read and it holds the signing secrets and the visitors' details.
 */
export const PG_DUMP = '(umask 077 && pg_dump -Fc "$DATABASE_URL" -f portfolio.dump)';
/** Putting that dump back: into a new database, then the service is pointed at it. */
export const PG_RESTORE =
  'restore it into a new database (createdb), point DATABASE_URL at it, pg_restore --no-owner -d "$DATABASE_URL" portfolio.dump, and restart the service';

/**
 * The command line of backup and restore: one file, `--force`, `--env-file`, `--help`. Prints
 * `usage` and returns null for `--help`; `file` is undefined unless exactly one file is named
 * (each command says what it needs, after the checks that come first).
 */
export function fileCommandOptions(
  usage: string,
): { file: string | undefined; force: boolean; envFile: string | undefined } | null {
  const { values, positionals } = parseArgs({
    options: {
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
      ...ENV_FILE_OPTION,
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return null;
  }
  return {
    file: positionals.length === 1 ? ownersPath(positionals[0]!) : undefined,
    force: values.force,
    envFile: values['env-file'],
  };
}
