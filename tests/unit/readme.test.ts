import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configTable } from '../../scripts/config-table.ts';
import { frontMatterTable } from '../../scripts/front-matter-table.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const configuration = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

describe('README', () => {
  it('opens with the two quick-start commands', () => {
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## What you get'));
    const commands = [...quickStart.matchAll(/^(npm [^#\n]+?)\s*(?:#.*)?$/gm)].map((m) => m[1]);
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
  });

  it('holds what a newcomer needs, and links the reference in docs/', () => {
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual(['Quick start', 'What you get', 'Make it yours', 'Deploy', 'Requirements', 'Links']);
    for (const [, target] of readme.matchAll(/\]\((docs\/[a-z-]+\.md)/g))
      expect(() => readFileSync(new URL(`../../${target}`, import.meta.url)), target).not.toThrow();
  });

  it('carries the front-matter table generated from functions/projects/schema.ts', () => {
    expect(readme).toContain(frontMatterTable());
  });
});

describe('docs/configuration.md', () => {
  it('carries the configuration table generated from functions/config/env-variables.ts', () => {
    expect(configuration).toContain(configTable());
  });
});
