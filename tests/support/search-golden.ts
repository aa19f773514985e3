/**
 * The golden answers of the search (tests/unit/search-golden.test.ts): a fixed list of queries
 * answered over a fixed set of documents, at the site's own 19 projects and at a generated
 * 250-project copy (bench/scale/generate-projects.ts), documents as bench/search/search-documents.ts
 * reads them.
 */
import path from 'node:path';
import type { SearchType } from '../../functions/search/search-types.ts';

export { searchDocumentsAt as goldenDocuments } from '../../bench/search/search-documents.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Words, prefixes, typos, several words, stack names, nothing found, unicode, quotes and symbols. */
const GOLDEN_QUERIES: readonly string[] = [
  'rust',
  'Rust',
  'project',
  'search',
  'api',
  'contact',
  'leakhound',
  'security',
  'secret scanner',
  'git repositories',
  'typescript',
  'python',
  'postgresql',
  'sqlite',
  'docker',
  'kubernetes',
  'react',
  'go',
  'c#',
  'c++',
  'github actions',
  'le',
  'lea',
  'sec',
  'proj',
  'typ',
  'doc',
  'kube',
  'serch',
  'securty',
  'kubernets',
  'postgress',
  'typescrpt',
  'rate limited',
  'rate_limited',
  'webhooks',
  'sandbox keys',
  'list_projects',
  'get_project',
  'GET /api/v1/projects',
  'POST',
  'mcp tool',
  'the',
  'the and of',
  'a',
  'xyzzyqwerty',
  'zzzz',
  'skärgård',
  'skargard',
  'Zürich',
  'naïve café',
  '日本語',
  '"secret scanner"',
  "it's",
  'live keys verified',
  'database URLs and API tokens',
  'cursor pagination',
  'idempotency key',
  'deprecation',
  'sdk',
  'cli',
  'authentication token',
  'pricing',
  'agents',
  'karamisen',
  'edition',
  'number 42',
  'loka',
  'ka lo mi',
  '  spaced   out  ',
  'x',
  '42',
  '2021',
  'machine learning model',
];

/** Searches with a type filter or another limit, each against several queries. */
const GOLDEN_OPTIONS: readonly { type?: SearchType; limit: number }[] = [
  { limit: 10 },
  { limit: 25 },
  { type: 'project', limit: 20 },
  { type: 'doc', limit: 5 },
];

export interface GoldenCase {
  query: string;
  options: { type?: SearchType; limit: number };
}

/** Every query with the default options; the first third also with each other option. */
export function goldenCases(): GoldenCase[] {
  const cases: GoldenCase[] = [];
  GOLDEN_QUERIES.forEach((query, n) => {
    for (const options of GOLDEN_OPTIONS.slice(0, n % 3 === 0 ? undefined : 1)) cases.push({ query, options });
  });
  return cases;
}

export const GOLDEN_SIZES = [19, 250] as const;

export function goldenFixture(size: number): string {
  return path.join(ROOT, `tests/fixtures/search-golden/${size}-projects.json`);
}
