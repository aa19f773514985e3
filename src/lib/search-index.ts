import { OPERATIONS } from '../../functions/operations.ts';
import { searchDocuments } from '../../functions/search/documents.ts';
import { SearchIndex } from '../../functions/search/search-index.ts';
import { projectSources } from './catalog.ts';
import { loadDocs } from './docs.ts';

/**
 * The serialized search index over projects, docs and operations, from the same sources as the
 * pages. There are no MCP tools to index yet: their list goes where `tools` is empty.
 */
export async function searchIndexJson(): Promise<string> {
  const [projects, docs] = await Promise.all([projectSources(), loadDocs()]);
  return JSON.stringify(SearchIndex.build(searchDocuments({ projects, docs, operations: OPERATIONS, tools: [] })));
}
