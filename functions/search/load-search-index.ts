import { OPERATIONS } from '../operations/operations.ts';
import type { ProjectSource } from '../projects/catalog.ts';
import { searchDocuments } from './documents.ts';
import { SearchIndex } from './search-index.ts';

/**
 * The index's JSON, or how to read it: the node server reads the file on the first search, so
 * that an idle server holds no copy of it (7 MB at 2,000 projects).
 */
export type SearchIndexJson = string | (() => string);

/** What the handlers ask of the index. */
export type SearchEngine = Pick<SearchIndex, 'search'>;

/**
 * The index the build wrote (dist/client/search-index.json), as the production server passes it.
 * Without one (`astro dev`, tests that build no site) the index is made from what is at hand:
 * the projects and the operations; documentation pages are only known to the Astro build.
 * It is read on the first search, not before: loading it is the largest part of making the
 * service (about 15 ms of CPU), which a function instance that answers no search never needs.
 */
export function loadSearchIndex(json: SearchIndexJson | undefined, projects: readonly ProjectSource[]): SearchEngine {
  let index: SearchIndex | undefined;
  const loaded = () =>
    (index ??=
      json !== undefined
        ? SearchIndex.fromJSON(typeof json === 'function' ? json() : json)
        : SearchIndex.build(searchDocuments({ projects, docs: [], operations: OPERATIONS, tools: [] })));
  return { search: (query, options) => loaded().search(query, options) };
}
