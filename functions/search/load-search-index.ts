import { OPERATIONS } from '../operations/operations.ts';
import type { ProjectSource } from '../projects/catalog.ts';
import { searchDocuments } from './documents.ts';
import { SearchIndex } from './search-index.ts';

/**
 * The index the build wrote (dist/client/search-index.json), as the production server passes it.
 * Without one (`astro dev`, tests that build no site) the index is made from what is at hand:
 * the projects and the operations; documentation pages are only known to the Astro build.
 */
export function loadSearchIndex(json: string | undefined, projects: readonly ProjectSource[]): SearchIndex {
  if (json !== undefined) return SearchIndex.fromJSON(json);
  return SearchIndex.build(searchDocuments({ projects, docs: [], operations: OPERATIONS, tools: [] }));
}
