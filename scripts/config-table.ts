import { readFileSync, writeFileSync } from 'node:fs';
import { ENV_VARIABLES, envVariable, type EnvVariable } from '../functions/config/env-variables.ts';

/**
 * The configuration table of docs/configuration.md, generated from the one list of variables
 * (tests keep them equal): each variable's default, the values its kind accepts (the words its
 * error quotes), and its meaning, with whether the build bakes it and whether only the Node
 * server reads it.
 */
export function configTable(): string {
  const rows = (Object.keys(ENV_VARIABLES) as EnvVariable[]).map((name) => {
    const variable = envVariable(name);
    const baked = variable.baked === true ? ' Baked into the build.' : '';
    const nodeOnly = variable.hosts === 'node' ? ' Read by the Node server only.' : '';
    const shownDefault = variable.defaultFrom ?? `\`${variable.default}\``;
    return `| \`${name}\` | ${shownDefault} | ${variable.kind.accepts} | ${variable.meaning}${baked}${nodeOnly} |`;
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
