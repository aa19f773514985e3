import type { APIRoute } from 'astro';
import { OPERATIONS } from '../../functions/operations.ts';
import { searchDocuments } from '../../functions/search/documents.ts';
import { SearchIndex } from '../../functions/search/search-index.ts';
import { projectSources } from '../lib/catalog.ts';
import { loadDocs } from '../lib/docs.ts';

/**
 * The search index, built once here from the same sources as the pages and written as
 * /search-index.json; the production server loads it at start (functions/server/main.ts).
 * There are no MCP tools to index yet: their list goes where `tools` is empty.
 */
export const GET: APIRoute = async () => {
  const [projects, docs] = await Promise.all([projectSources(), loadDocs()]);
  const index = SearchIndex.build(searchDocuments({ projects, docs, operations: OPERATIONS, tools: [] }));
  return new Response(JSON.stringify(index), { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
