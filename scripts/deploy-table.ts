import { readFileSync, writeFileSync } from 'node:fs';
import {
  askedVariables,
  deployVariables,
  SITE_URL_VALUE,
  type DeployVariable,
  type FunctionHostName,
} from '../functions/hosts/static/deploy-variables.ts';

const HOSTS: readonly FunctionHostName[] = ['netlify', 'vercel', 'cloudflare'];
const HOST_NAMES: Record<FunctionHostName, string> = { netlify: 'Netlify', vercel: 'Vercel', cloudflare: 'Cloudflare' };

/** Which deploy buttons ask for a variable, in words. */
function askedBy(name: string): string {
  const hosts = HOSTS.filter((host) => askedVariables(host).some((asked) => asked === name));
  if (hosts.length === HOSTS.length) return 'every button';
  if (hosts.length === 0) return 'none: optional';
  return hosts.map((host) => `${HOST_NAMES[host]}'s`).join(', ') + ' button';
}

/**
 * The table of a function deployment's values, in the README ("Live without a server") and in
 * docs/deploy-buttons.md (the page the Vercel button links to), generated from
 * functions/hosts/static/deploy-variables.ts (tests/unit/readme.test.ts keeps both equal to it):
 * what the buttons ask for first, then SITE_URL, then the optional ones; each with a sample value
 * and where to get it. Their meanings are in docs/configuration.md.
 */
export function deployTable(): string {
  const all = new Map<string, DeployVariable>();
  for (const host of HOSTS) for (const variable of deployVariables(host)) all.set(variable.name, variable);
  const variables = [...all.values()];
  const asked = variables.filter(({ need }) => need !== 'optional');
  const optional = variables.filter(({ need }) => need === 'optional');
  const rows = [...asked, SITE_URL_VALUE, ...optional].map(
    ({ name, sample, source }) => `| \`${name}\` | ${askedBy(name)} | \`${sample}\` | ${source} |`,
  );
  return ['| Variable | Asked by | Sample | Where to get it |', '|---|---|---|---|', ...rows].join('\n');
}

/** The files that carry the table. */
export const DEPLOY_TABLE_FILES = ['README.md', 'docs/deploy-buttons.md'] as const;

/** `--write` replaces the table in each file; otherwise the table is printed. */
if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--write')) {
    for (const file of DEPLOY_TABLE_FILES) {
      const url = new URL(`../${file}`, import.meta.url);
      const text = readFileSync(url, 'utf8');
      writeFileSync(url, text.replace(/\| Variable \| Asked by \|.*\|\n(?:\|.*\|\n)+/, `${deployTable()}\n`));
    }
  } else {
    process.stdout.write(`${deployTable()}\n`);
  }
}
