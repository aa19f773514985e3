import path from 'node:path';

/**
 * A file named on the command line, as the owner meant it: npm runs scripts in the package root,
 * so a relative path is resolved against the directory npm was called from (INIT_CWD).
 */
export function ownersPath(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}
