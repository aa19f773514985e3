import { readFileSync, writeFileSync } from 'node:fs';
import { ENV_VARIABLES, envVariable, type EnvVariable, type Hosts } from '../functions/config/env-variables.ts';

/** What a row adds about where its variable is read; nothing when every host reads it. */
const HOSTS_NOTE: Record<Hosts, string> = {
  all: '',
  node: ' Read by the Node server only.',
  vercel: ' Read by the Vercel cron target only.',
};

/**
 * The configuration table of docs/configuration.md, generated from the one list of variables
 * (tests keep them equal): each variable's default, the values its kind accepts (the words its
 * error quotes), and its meaning, with whether the build bakes it and which host alone reads it
 * (the Node server, or Vercel's cron target), if one does.
 */
export function configTable(): string {
  const rows = (Object.keys(ENV_VARIABLES) as EnvVariable[]).map((name) => {
    const variable = envVariable(name);
    const baked = variable.baked === true ? ' Baked into the build.' : '';
    const hostsNote = HOSTS_NOTE[variable.hosts];
    const shownDefault = variable.defaultFrom ?? `\`${variable.default}\``;
    return `| \`${name}\` | ${shownDefault} | ${variable.kind.accepts} | ${variable.meaning}${baked}${hostsNote} |`;
  });
  return ['| Variable | Default | Valid values | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** `--write` replaces the table in docs/configuration.md; otherwise the table is printed. */
if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--write')) {
    const docUrl = new URL('../docs/configuration.md', import.meta.url);
    const doc = readFileSync(docUrl, 'utf8');
    writeFileSync(docUrl, doc.replace(/\| Variable \|.*\|\n(?:\|.*\|\n)+/, `${configTable()}\n`));
  } else {
    process.stdout.write(`${configTable()}\n`);
  }
}
