import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../functions/operations/operations.ts';
import { searchDocuments, type SearchDocument } from '../../functions/search/documents.ts';
import { SearchIndex } from '../../functions/search/search-index.ts';

function doc(id: string, fields: Partial<SearchDocument>): SearchDocument {
  return { id, type: 'doc', title: id, url: `/${id}`, headings: [], tags: [], text: '', ...fields };
}

const documents: SearchDocument[] = [
  doc('title-match', { title: 'Kubernetes operator', text: 'Runs workloads on a cluster.' }),
  doc('body-match', {
    title: 'Deployment notes',
    text: 'We moved everything to Kubernetes last spring, then added autoscaling.',
  }),
  doc('heading-match', {
    title: 'Platform guide',
    headings: ['Kubernetes basics'],
    text: 'How the platform is put together.',
  }),
  doc('ferry', {
    type: 'project',
    title: 'Skärgård ferry times',
    tags: ['TypeScript', 'mobile'],
    text: 'Departures for the archipelago.',
  }),
  doc('tool', { type: 'mcp_tool', title: 'search_projects', text: 'Finds projects for an agent.' }),
];
const index = SearchIndex.build(documents);

const ids = (query: string, options: Parameters<SearchIndex['search']>[1] = { limit: 10 }) =>
  index.search(query, options).hits.map((hit) => hit.url.slice(1));

describe('SearchIndex', () => {
  it('ranks a title match above a heading match above a body match', () => {
    expect(ids('kubernetes')).toEqual(['title-match', 'heading-match', 'body-match']);
  });

  it('matches prefixes, so results appear while a word is still being typed', () => {
    expect(ids('kuber')).toContain('title-match');
    expect(ids('archip')).toEqual(['ferry']);
  });

  it('forgives a typo in longer words but not in short ones', () => {
    expect(ids('kubernetse')).toContain('title-match');
    expect(ids('autoscalling')).toEqual(['body-match']);
    expect(ids('kuve')).toEqual([]);
  });

  it('ignores case and diacritics', () => {
    expect(ids('SKARGARD')).toEqual(['ferry']);
    expect(ids('skärgård')).toEqual(['ferry']);
  });

  it('finds tags', () => {
    expect(ids('typescript')).toEqual(['ferry']);
  });

  it('filters by type and counts every match before the limit', () => {
    expect(ids('kubernetes', { type: 'project', limit: 10 })).toEqual([]);
    expect(ids('agent', { type: 'mcp_tool', limit: 10 })).toEqual(['tool']);
    const outcome = index.search('kubernetes', { limit: 1 });
    expect(outcome.total).toBe(3);
    expect(outcome.hits).toHaveLength(1);
  });

  it('answers each hit with its type, title, path, snippet and a rounded score', () => {
    const [hit] = index.search('autoscaling', { limit: 1 }).hits;
    expect(hit).toEqual({
      type: 'doc',
      title: 'Deployment notes',
      url: '/body-match',
      snippet: documents[1]!.text,
      score: expect.any(Number),
    });
    expect(String(hit!.score)).toMatch(/^\d+(\.\d{1,3})?$/);
  });

  it('finds nothing for stop words or punctuation alone', () => {
    expect(index.search('the', { limit: 10 }).total).toBe(0);
    expect(index.search('<>!?', { limit: 10 }).total).toBe(0);
  });

  it('gives the same answers after a round trip through JSON, as the server loads it', () => {
    const loaded = SearchIndex.fromJSON(JSON.stringify(index));
    for (const query of ['kubernetes', 'kuber', 'skargard', 'autoscalling']) {
      expect(loaded.search(query, { limit: 10 })).toEqual(index.search(query, { limit: 10 }));
    }
  });
});

describe('searchDocuments', () => {
  const all = searchDocuments({
    projects: [
      {
        slug: 'leakhound',
        title: 'Leakhound',
        description: 'A secret scanner for git repositories.',
        stack: ['Rust', 'SQLite'],
        domain: 'security',
        year: 2021,
        markdown: '## How it works\n\nIt walks **git objects** directly; see [the docs](https://example.com).',
      },
    ],
    docs: [
      {
        slug: 'developers/quickstart',
        title: 'Quickstart',
        description: 'Your first request in a minute.',
        markdown: '## Get a key\n\nCall `createKey`.',
      },
    ],
    operations: OPERATIONS,
    tools: [{ name: 'list_projects', description: 'Lists the projects.' }],
  });

  it('makes one document per project, doc page, operation and tool, with their site paths', () => {
    expect(all).toHaveLength(1 + 1 + Object.keys(OPERATIONS).length + 1);
    const byId = new Map(all.map((document) => [document.id, document]));
    expect(byId.get('project:leakhound')).toMatchObject({
      type: 'project',
      url: '/projects/leakhound',
      headings: ['How it works'],
      tags: ['Rust', 'SQLite', 'security'],
      text: 'A secret scanner for git repositories. How it works It walks git objects directly; see the docs.',
    });
    expect(byId.get('doc:developers/quickstart')).toMatchObject({
      type: 'doc',
      url: '/developers/quickstart',
      headings: ['Get a key'],
    });
    expect(byId.get('operation:search')).toMatchObject({
      type: 'operation',
      title: OPERATIONS.search.summary,
      url: '/developers#search',
    });
    expect(byId.get('mcp_tool:list_projects')).toMatchObject({
      type: 'mcp_tool',
      title: 'list_projects',
      url: '/developers#tool-list_projects',
    });
  });

  it('lets operations be found by operationId, path and words of their description', () => {
    const operations = SearchIndex.build(all);
    expect(operations.search('listProjects', { type: 'operation', limit: 1 }).hits[0]?.url).toBe(
      '/developers#listProjects',
    );
    expect(operations.search('idempotency', { type: 'operation', limit: 10 }).hits.map((hit) => hit.url)).toContain(
      '/developers#createContact',
    );
    expect(operations.search('jobs', { type: 'operation', limit: 10 }).total).toBeGreaterThan(0);
  });
});
