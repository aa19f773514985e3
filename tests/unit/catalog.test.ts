import { describe, expect, it } from 'vitest';
import { Catalog } from '../../functions/projects/catalog.ts';
import { domainLabel, projectAsMarkdown } from '../../functions/projects/project-markdown.ts';
import { projectSource as source } from '../support/fixtures.ts';

const catalog = new Catalog(
  [
    source('beta', 2020, 'web', ['TypeScript', 'React']),
    source('alpha', 2020, 'data', ['Python']),
    source('gamma', 2024, 'web', ['Go']),
  ],
  'https://ada.example',
);

describe('Catalog', () => {
  it('orders newest year first, then by slug', () => {
    expect(catalog.filter({}).map((p) => p.slug)).toEqual(['gamma', 'alpha', 'beta']);
  });

  it('filters by domain and stack, case-insensitively', () => {
    expect(catalog.filter({ domain: 'WEB' }).map((p) => p.slug)).toEqual(['gamma', 'beta']);
    expect(catalog.filter({ stack: 'typescript' }).map((p) => p.slug)).toEqual(['beta']);
    expect(catalog.filter({ domain: 'web', stack: 'python' })).toEqual([]);
  });

  it('builds absolute URLs from the site URL and nulls for missing links', () => {
    expect(catalog.get('alpha')?.project).toMatchObject({
      url: 'https://ada.example/projects/alpha',
      repository: null,
      website: null,
    });
  });

  it('counts facets, most common first', () => {
    expect(catalog.facets('domain')).toEqual([
      { value: 'web', count: 2 },
      { value: 'data', count: 1 },
    ]);
  });
});

describe('the label of a domain, as pages, twins, cards and llms.txt show it', () => {
  it('turns hyphens into spaces, but keeps the hyphen of a word such as e-commerce', () => {
    expect(domainLabel('developer-tools')).toBe('Developer tools');
    expect(domainLabel('e-commerce')).toBe('E-commerce');
    expect(domainLabel('x-ray-imaging')).toBe('X-ray imaging');
    expect(domainLabel('b2b-e-commerce')).toBe('B2b e-commerce');
    expect(domainLabel('web')).toBe('Web');
  });

  it('is the label of the Markdown twin', () => {
    const [record] = new Catalog([source('shop', 2024, 'e-commerce', ['Go'])], 'https://ada.example').records;
    expect(projectAsMarkdown(record!)).toContain('\n- Domain: E-commerce\n');
  });
});
