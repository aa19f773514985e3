import { readFileSync, writeFileSync } from 'node:fs';
import { ENV_VARIABLES } from '../functions/config/env-variables.ts';

/** The configuration table of docs/configuration.md, generated from the one list of variables (tests keep them equal). */
export function configTable(): string {
  const rows = Object.entries(ENV_VARIABLES).map(([name, variable]) => {
    const baked = 'baked' in variable ? ' Baked into the build.' : '';
    const shownDefault = 'defaultFrom' in variable ? variable.defaultFrom : `\`${variable.default}\``;
    return `| \`${name}\` | ${shownDefault} | ${variable.meaning}${baked} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** `--write` replaces the table in docs/configuration.md; otherwise the table is printed. */
if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--write')) {
    const docUrl = new URL('../docs/configuration.md', import.meta.url);
    const doc = readFileSync(docUrl, 'utf8');
    writeFileSync(docUrl, doc.replace(/\| Variable \| Default \| Meaning \|\n(?:\|.*\|\n)+/, `${configTable()}\n`));
  } else {
    process.stdout.write(`${configTable()}\n`);
  }
}
