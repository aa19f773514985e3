import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * A file named on the command line, as the owner meant it: npm runs scripts in the package root,
 * so a relative path is resolved against the directory npm was called from (INIT_CWD).
 */
function ownersPath(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

/**
 * The command line of backup and restore: one file, `--force`, `--help`. Prints `usage` and
 * returns null for `--help`; `file` is undefined unless exactly one file is named (each command
 * says what it needs, after the checks that come first).
 */
export function fileCommandOptions(usage: string): { file: string | undefined; force: boolean } | null {
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
  return { file: positionals.length === 1 ? ownersPath(positionals[0]!) : undefined, force: values.force };
}
