import { ENV_VARIABLES } from '../functions/config/env.ts';

/** The README's configuration table, generated from the one list of variables (tests keep them equal). */
export function configTable(): string {
  const rows = Object.entries(ENV_VARIABLES).map(
    ([name, { default: value, meaning }]) => `| \`${name}\` | \`${value}\` | ${meaning} |`,
  );
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${configTable()}\n`);
