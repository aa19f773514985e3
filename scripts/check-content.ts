import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkContent } from '../functions/content/check-content.ts';

/**
 * `npm run build` runs this before `astro build`: every bad content file is reported at once,
 * each naming its fields and their rules, where Astro would stop at the first. `--root <dir>`
 * checks another copy of the repository (the tests use it).
 */
const { values } = parseArgs({ options: { root: { type: 'string' } } });
const root = path.resolve(values.root ?? path.join(import.meta.dirname, '..'));
const errors = checkContent(root);
if (errors.length > 0) {
  for (const error of errors) process.stderr.write(`${error.message}\n\n`);
  process.stderr.write(`${errors.length} content file(s) to fix before the site can be built.\n`);
  process.exitCode = 1;
}
