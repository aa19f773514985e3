/**
 * The golden answers of the search (tests/unit/search-golden.test.ts): a fixed list of queries
 * answered over a fixed set of documents, at the site's own 19 projects and at a generated
 * 250-project copy (bench/scale/generate-projects.ts). The documents are read from content/
 * without Astro (front matter with yaml, doc facts left unfilled): the index is what is tested,
 * so its input only has to be realistic and stable.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { generateProjects } from '../../bench/scale/generate-projects.ts';
import { DOCS_TOOLS } from '../../functions/mcp/docs-tools.ts';
import { PRODUCT_TOOLS } from '../../functions/mcp/product-tools.ts';
import { OPERATIONS } from '../../functions/operations/operations.ts';
import type { ProjectSource } from '../../functions/projects/catalog.ts';
import { searchDocuments, type SearchDocument } from '../../functions/search/documents.ts';
import type { SearchType } from '../../functions/search/search-types.ts';
import { ROOT } from './server.ts';

/** Words, prefixes, typos, several words, stack names, nothing found, unicode, quotes and symbols. */
export const GOLDEN_QUERIES: readonly string[] = [
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
export const GOLDEN_OPTIONS: readonly { type?: SearchType; limit: number }[] = [
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

function frontMatter(text: string): { data: Record<string, unknown>; body: string } {
  const [, yaml = '', body = ''] = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text) ?? [];
  return { data: parse(yaml) as Record<string, unknown>, body };
}

function readProjects(dir: string): ProjectSource[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const { data, body } = frontMatter(readFileSync(path.join(dir, name), 'utf8'));
      return { ...data, slug: name.slice(0, -3), markdown: body } as unknown as ProjectSource;
    });
}

function readDocs() {
  const dir = path.join(ROOT, 'content/docs');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const { data, body } = frontMatter(readFileSync(path.join(dir, name), 'utf8'));
      return {
        slug: name.slice(0, -3),
        title: String(data.title),
        description: String(data.description),
        markdown: body,
      };
    });
}

/** The documents at `count` projects: the site's own when count is 19 or less, else topped up with made ones. */
export function goldenDocuments(count: number): SearchDocument[] {
  const own = path.join(ROOT, 'content/projects');
  let projects: ProjectSource[];
  if (count <= readdirSync(own).filter((name) => name.endsWith('.md')).length) projects = readProjects(own);
  else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'search-golden-'));
    try {
      cpSync(own, dir, { recursive: true });
      generateProjects(dir, count);
      projects = readProjects(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return searchDocuments({
    projects,
    docs: readDocs(),
    operations: OPERATIONS,
    tools: [...PRODUCT_TOOLS, ...DOCS_TOOLS],
  });
}

export const GOLDEN_SIZES = [19, 250] as const;

export function goldenFixture(size: number): string {
  return path.join(ROOT, `tests/fixtures/search-golden/${size}-projects.json`);
}
