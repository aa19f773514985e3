/**
 * The search's documents at `count` projects, read from content/ without Astro (front matter with
 * yaml, doc facts left unfilled): the site's own projects, topped up with made ones
 * (bench/scale/generate-projects.ts) in a temporary copy. What the index is given only has to be
 * realistic and stable: the golden answers (tests/unit/search-golden.test.ts) and the search
 * micro-benchmark (bench/search-cpu.ts) use it.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { DOCS_TOOLS } from '../../functions/mcp/docs-tools.ts';
import { PRODUCT_TOOLS } from '../../functions/mcp/product-tools.ts';
import { OPERATIONS } from '../../functions/operations/operations.ts';
import type { ProjectSource } from '../../functions/projects/catalog.ts';
import { searchDocuments, type SearchDocument } from '../../functions/search/documents.ts';
import { generateProjects } from '../scale/generate-projects.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

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
export function searchDocumentsAt(count: number): SearchDocument[] {
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
