import path from 'node:path';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/** The checkout the owner's commands run in (scripts/ is one below it). */
export const CHECKOUT = path.resolve(import.meta.dirname, '..');

/**
 * The options of an owner's command (`npm run preview:netlify -- --port 8888`); `--help` prints
 * `usage` and ends the command.
 */
export function ownerOptions<const T extends ParseArgsOptionsConfig>(usage: string, options: T) {
  if (process.argv.slice(2).includes('--help')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return parseArgs({ options }).values;
}

/** Ends an owner's command that failed with one line naming it (`deploy:cloudflare: …`), exit 1. */
export function failOwnerCommand(command: string, error: unknown): never {
  process.stderr.write(`${command}: ${(error as Error).message}\n`);
  process.exit(1);
}
