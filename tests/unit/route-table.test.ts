import { describe, expect, it } from 'vitest';
import { RouteTable } from '../../functions/http/route-table.ts';

const ROUTES = [
  { name: 'list', path: '/api/v1/projects' },
  { name: 'one', path: '/api/v1/projects/{slug}' },
  { name: 'post one', path: '/api/v1/projects/{slug}' },
  { name: 'doc', path: '/api/v1/docs/{path}' },
];

describe('RouteTable', () => {
  const table = new RouteTable(ROUTES);

  it('gives every route a path matches, in table order, with its parameters decoded', () => {
    const found = table.matches('/api/v1/projects/a%20b');
    expect(found.map(({ route }) => route.name)).toEqual(['one', 'post one']);
    expect(found.map(({ params }) => params)).toEqual([{ slug: 'a b' }, { slug: 'a b' }]);
    expect(table.matches('/api/v1/projects').map(({ route }) => route.name)).toEqual(['list']);
  });

  it('answers a path asked again as the first time, and no caller can change what it was given', () => {
    const first = table.matches('/api/v1/projects/leakhound');
    expect(table.matches('/api/v1/projects/leakhound')).toEqual(first);
    expect(Object.isFrozen(first[0]!.params)).toBe(true);
    expect(() => {
      (first[0]!.params as Record<string, string>).slug = 'other';
    }).toThrow(TypeError);
    expect(table.matches('/api/v1/projects/leakhound')[0]!.params).toEqual({ slug: 'leakhound' });
  });

  it('matches nothing for an unknown path or a bad escape, however often asked, and remembers neither', () => {
    const fresh = new RouteTable(ROUTES);
    for (let n = 0; n < 3; n++) {
      expect(fresh.matches('/api/v1/nothing')).toEqual([]);
      expect(fresh.matches('/api/v1/projects/%E0%A4%A')).toEqual([]);
    }
    expect(fresh.remembers).toBe(0);
  });

  it('matches a long path but does not remember it', () => {
    const fresh = new RouteTable(ROUTES);
    const slug = 'x'.repeat(10_000);
    expect(fresh.matches(`/api/v1/projects/${slug}`)[0]!.params).toEqual({ slug });
    expect(fresh.remembers).toBe(0);
  });

  it('stays right and bounded past the paths it remembers', () => {
    const fresh = new RouteTable(ROUTES);
    for (let n = 0; n < 2500; n++) {
      const found = fresh.matches(`/api/v1/docs/page-${n}`);
      expect(found.map(({ route, params }) => [route.name, params.path])).toEqual([['doc', `page-${n}`]]);
      expect(fresh.remembers).toBeLessThanOrEqual(1000);
    }
    expect(fresh.matches('/api/v1/docs/page-7')[0]!.params).toEqual({ path: 'page-7' });
  });
});
