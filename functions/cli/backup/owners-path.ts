import { parseArgs } from 'node:util';
import { ENV_FILE_OPTION, ownersPath } from '../service-config.ts';

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
