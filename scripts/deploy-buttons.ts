import { deployButtonsMarkdown, FORK_PLACEHOLDER } from '../functions/hosts/static/deploy-buttons.ts';

/**
 * `npm run deploy:buttons -- https://github.com/<you>/<repo>`: the deploy buttons
 * (functions/hosts/static/deploy-buttons.ts) for your fork, as Markdown to paste over the ones
 * in the README. Without an argument, for the placeholder repository.
 */
const repository = process.argv[2] ?? FORK_PLACEHOLDER;
if (!/^https:\/\/(github\.com|gitlab\.com)\/[^/\s]+\/[^/\s]+\/?$/.test(repository)) {
  process.stderr.write(`usage: npm run deploy:buttons -- https://github.com/<you>/<repo> (got ${repository})\n`);
  process.exit(2);
}
process.stdout.write(`${deployButtonsMarkdown(repository)}\n`);
