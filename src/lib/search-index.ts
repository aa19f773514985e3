import { DOCS_TOOLS } from '../../functions/mcp/docs-tools.ts';
import { PRODUCT_TOOLS } from '../../functions/mcp/product-tools.ts';
import { OPERATIONS } from '../../functions/operations/operations.ts';
import { searchDocuments } from '../../functions/search/documents.ts';
import { SearchIndex } from '../../functions/search/search-index.ts';
import { projectSources } from './catalog.ts';
import { loadDocs } from './docs.ts';

/** The serialized search index over projects, docs, operations and MCP tools, from the same sources as the pages. */
export async function searchIndexJson(): Promise<string> {
  const [projects, docs] = await Promise.all([projectSources(), loadDocs()]);
  return JSON.stringify(
    SearchIndex.build(
      searchDocuments({ projects, docs, operations: OPERATIONS, tools: [...PRODUCT_TOOLS, ...DOCS_TOOLS] }),
    ),
  );
}
