import { LRUCache } from 'lru-cache';
import { conditionalJson, representation, type Representation } from '../http/json.ts';
import { parseQuery } from '../http/query.ts';
import type { RouteHandler } from '../http/router.ts';
import { searchQuery } from './schema.ts';
import type { SearchEngine } from './load-search-index.ts';
import { SEARCH_QUERY_MAX_LENGTH } from './search-types.ts';

const WORDS = {
  q: { hint: `Send q with 1 to ${SEARCH_QUERY_MAX_LENGTH} characters of search terms, e.g. /api/search?q=rust.` },
  type: { hint: 'Leave type out to search everything.' },
};

/**
 * search (GET /api/search): the best matches across projects, documentation, API operations
 * and MCP tools as `{query, total, results}`, each result with an absolute URL and a plain-text
 * snippet. The index never changes while the process runs, so answers are cached by their
 * parameters and revalidate with a strong ETag.
 */
export function searchHandler(index: SearchEngine, siteUrl: string): RouteHandler {
  const answers = new LRUCache<string, Representation>({ max: 1000 });

  return (request) => {
    const { q, type, limit } = parseQuery(request.query, searchQuery, WORDS);

    const key = `${type ?? ''}\u0000${limit}\u0000${q}`;
    let answer = answers.get(key);
    if (answer === undefined) {
      const { total, hits } = index.search(q, { type, limit });
      answer = representation({
        query: q,
        total,
        results: hits.map((hit) => ({ ...hit, url: `${siteUrl}${hit.url}` })),
      });
      answers.set(key, answer);
    }
    return conditionalJson(request, answer);
  };
}
