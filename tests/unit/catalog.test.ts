import { describe, expect, it } from 'vitest';
import { Catalog } from '../../functions/projects/catalog.ts';
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
