import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configTable } from '../../scripts/config-table.ts';
import { DEPLOY_TABLE_FILES, deployTable } from '../../scripts/deploy-table.ts';
import { frontMatterTable } from '../../scripts/front-matter-table.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const configuration = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

describe('README', () => {
  it('opens with the two quick-start commands', () => {
    const start = readme.indexOf('## Quick start');
    const quickStart = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const commands = [...quickStart.matchAll(/^(npm [^#\n]+?)\s*(?:#.*)?$/gm)].map((m) => m[1]);
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
  });

  it('holds what a newcomer needs, and links the reference in docs/', () => {
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual([
      'Quick start',
      'Make it yours',
      'Live without a server',
      'On a server of your own',
      'What you get',
      'Requirements',
      'Links',
    ]);
    for (const [, target] of readme.matchAll(/\]\((docs\/[a-z-]+\.md)/g))
      expect(() => readFileSync(new URL(`../../${target}`, import.meta.url)), target).not.toThrow();
  });

  it('carries the front-matter table generated from functions/projects/schema.ts', () => {
    expect(readme).toContain(frontMatterTable());
  });

  it('keeps "Live without a server" to at most ten numbered steps, and the whole README to 250 lines', () => {
    const start = readme.indexOf('## Live without a server');
    const live = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const steps = [...live.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]));
    expect(steps).toEqual(steps.map((_, i) => i + 1));
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.length).toBeLessThanOrEqual(10);
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });
});

describe("the table of a function deployment's values", () => {
  it.each(DEPLOY_TABLE_FILES)('%s carries it as generated from functions/hosts/static/deploy-variables.ts', (file) => {
    expect(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')).toContain(deployTable());
  });
});

describe('docs/configuration.md', () => {
  it('carries the configuration table generated from functions/config/env-variables.ts', () => {
    expect(configuration).toContain(configTable());
  });
});
