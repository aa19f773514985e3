import { closeSync, constants, mkdirSync, openSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { siteBaseUrl } from '../functions/config/site-url.ts';
import { parseSite, type Site } from '../functions/config/site.ts';
import { ContentError } from '../functions/config/content-error.ts';
import { exampleHashes } from './init/example-content.ts';
import { linksOnTheWay, planInit, type Change } from './init/plan-init.ts';

/**
 * `npm run init -- --name "Ada Lovelace" --url https://ada.example [--tagline ...] [--email ...]
 * [--force] [--root <dir>]`: turns the example into the owner's own portfolio. Running it again
 * with the same values changes nothing; it never overwrites or deletes a file the owner edited
 * unless given --force. The documentation pages describe the API and MCP servers the site
 * serves, so they stay.
 */
const OPTIONS = {
  name: { type: 'string' },
  url: { type: 'string' },
  tagline: { type: 'string' },
  email: { type: 'string' },
  force: { type: 'boolean', default: false },
  root: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

/** Which option sets which field of site.json, to word its problems as the user typed them. */
const OPTION_OF_FIELD: Record<string, string> = {
  name: '--name',
  siteUrl: '--url',
  tagline: '--tagline',
  email: '--email',
};

const USAGE = `Usage: npm run init -- --name "Your Name" --url https://your.domain [--tagline "..."] [--email you@your.domain] [--force]

Makes this repository your portfolio: writes content/site.json for you, deletes the example
projects and adds one starter project. It never overwrites a file you edited unless --force,
and never writes or deletes through a symbolic link (it names the link and changes nothing).`;

function fail(message: string): never {
  process.stderr.write(`init: ${message}\n`);
  process.exit(1);
}

function siteFrom(values: { name?: string; url?: string; tagline?: string; email?: string }): Site {
  if (values.name === undefined || values.url === undefined) fail(`--name and --url are required.\n\n${USAGE}`);
  try {
    return parseSite({
      name: values.name,
      tagline: values.tagline ?? `Projects by ${values.name}.`,
      description: `The portfolio of ${values.name}: projects as pages for people, and as an API and MCP servers for agents.`,
      siteUrl: values.url.replace(/\/+$/, ''),
      ...(values.email === undefined ? {} : { email: values.email }),
      links: [],
    });
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    fail(error.problems.map(({ field, problem }) => `${OPTION_OF_FIELD[field] ?? field} ${problem}`).join('\n'));
  }
}

function apply(root: string, change: Change): void {
  const file = path.join(root, change.file);
  if (change.action === 'write') {
    mkdirSync(path.dirname(file), { recursive: true });
    // O_NOFOLLOW: a link put in place since the plan was checked fails the write (ELOOP) instead of being followed.
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
    try {
      writeFileSync(fd, change.text);
    } finally {
      closeSync(fd);
    }
    return;
  }
  rmSync(file);
  // An example's image folder goes with its last file.
  const dir = path.dirname(file);
  if (path.basename(path.dirname(dir)) === 'projects' && readdirSync(dir).length === 0) rmdirSync(dir);
}

function docsPages(root: string): string[] {
  const dir = path.join(root, 'content/docs');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `content/docs/${name.split(path.sep).join('/')}`)
    .sort();
}

const { values } = parseArgs({ options: OPTIONS });
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const root = path.resolve(values.root ?? path.join(import.meta.dirname, '..'));
const site = siteFrom(values);
const { changes, edited } = planInit(root, site, exampleHashes());

const links = linksOnTheWay(root, changes);
if (links.length > 0) {
  fail(
    [
      'nothing changed: init does not write through symbolic links, which may lead out of this repository:',
      ...links.map((link) => `  ${link}`),
      'Replace each with a regular file or folder (or remove it), then run again. --force does not change this.',
    ].join('\n'),
  );
}
if (edited.length > 0 && !values.force) {
  fail(
    [
      'nothing changed: these files differ from the example and from what init writes, so they hold edits of yours:',
      ...edited.map((file) => `  ${file}`),
      'Edit them by hand, or run again with --force to replace or delete them anyway.',
    ].join('\n'),
  );
}
if (changes.length === 0) {
  process.stdout.write(
    [`init: nothing to change; content/ is already ${site.name}'s portfolio.`, ...overridingSiteUrl(site), ''].join(
      '\n',
    ),
  );
  process.exit(0);
}
for (const change of changes) {
  apply(root, change);
  process.stdout.write(`${change.action === 'write' ? 'wrote  ' : 'deleted'} ${change.file} (${change.why})\n`);
}
process.stdout.write(
  [
    '',
    'Kept: the documentation pages, which describe the API and MCP servers your site serves:',
    ...docsPages(root).map((file) => `  ${file}`),
    '',
    `Next: add a description, location and links to content/site.json, and your projects to content/projects/.`,
    `The site is built for ${site.siteUrl} (siteUrl in content/site.json). To build for another address`,
    `without editing it, set SITE_URL when building, e.g. SITE_URL=https://staging.example npm run build;`,
    'it is baked into the build, so set it for npm run build or npm start, not only for the server.',
    ...overridingSiteUrl(site),
    '',
  ].join('\n'),
);

/** A warning when this shell's SITE_URL would override the siteUrl just written, as it does for the build and the server. */
function overridingSiteUrl(written: Site): string[] {
  const variable = process.env.SITE_URL;
  if (variable === undefined || variable === '' || siteBaseUrl(variable) === siteBaseUrl(written.siteUrl)) return [];
  return [
    '',
    `Note: SITE_URL is set in this shell to ${variable}. It overrides siteUrl, so a build or server started`,
    `from here is for ${variable}, not ${written.siteUrl}: unset it (unset SITE_URL) to use siteUrl.`,
  ];
}
