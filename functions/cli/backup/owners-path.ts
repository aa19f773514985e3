import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * A file named on the command line, as the owner meant it: npm runs scripts in the package root,
 * so a relative path is resolved against the directory npm was called from (INIT_CWD).
 */
export function ownersPath(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

/**
 * The command line of backup and restore: one file, `--force`, `--help`. Prints `usage` and
 * returns null for `--help`; throws `missingFile` unless exactly one file is named.
 */
export function fileCommandOptions(usage: string, missingFile: string): { file: string; force: boolean } | null {
  const { values, positionals } = parseArgs({
    options: {
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return null;
  }
  if (positionals.length !== 1) throw new Error(missingFile);
  return { file: ownersPath(positionals[0]!), force: values.force };
}
