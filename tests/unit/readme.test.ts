import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configTable } from '../../scripts/config-table.ts';
import { frontMatterTable } from '../../scripts/front-matter-table.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('opens with the two quick-start commands', () => {
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## What you get'));
    const commands = [...quickStart.matchAll(/^(npm [^#\n]+?)\s*(?:#.*)?$/gm)].map((m) => m[1]);
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
  });

  it('carries the configuration table generated from functions/config/env-variables.ts', () => {
    expect(readme).toContain(configTable());
  });

  it('carries the front-matter table generated from functions/projects/schema.ts', () => {
    expect(readme).toContain(frontMatterTable());
  });
});
