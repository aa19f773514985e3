import { LRUCache } from 'lru-cache';
import { ApiError } from '../http/api-error.ts';
import { conditionalJson, representation, type Representation } from '../http/json.ts';
import { integerParameter, strictQuery } from '../http/query.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import type { SearchIndex } from './search-index.ts';
import { isSearchType, SEARCH_LIMIT, SEARCH_QUERY_MAX_LENGTH, SEARCH_TYPES, type SearchType } from './search-types.ts';

export const SEARCH_PARAMETERS = ['q', 'type', 'limit'] as const;

const Q_HINT = `Send q with 1 to ${SEARCH_QUERY_MAX_LENGTH} characters of search terms, e.g. /api/search?q=rust.`;

/**
 * search (GET /api/search): the best matches across projects, documentation, API operations
 * and MCP tools as `{query, total, results}`, each result with an absolute URL and a plain-text
 * snippet. The index never changes while the process runs, so answers are cached by their
 * parameters and revalidate with a strong ETag.
 */
export function searchHandler(index: SearchIndex, siteUrl: string) {
  const answers = new LRUCache<string, Representation>({ max: 1000 });

  return (request: ApiRequest): ApiResponse => {
    const query = strictQuery(request.query, SEARCH_PARAMETERS);
    const q = queryParameter(query.get('q'));
    const type = typeParameter(query.get('type'));
    const limit = integerParameter(query.get('limit'), 'limit', SEARCH_LIMIT.min, SEARCH_LIMIT.max, SEARCH_LIMIT.default);

    const key = `${type ?? ''}\u0000${limit}\u0000${q}`;
    let answer = answers.get(key);
    if (answer === undefined) {
      const { total, hits } = index.search(q, { type, limit });
      answer = representation({ query: q, total, results: hits.map((hit) => ({ ...hit, url: `${siteUrl}${hit.url}` })) });
      answers.set(key, answer);
    }
    return conditionalJson(request, answer);
  };
}

function queryParameter(value: string | undefined): string {
  if (value === undefined) {
    throw new ApiError('invalid_parameter', 'Query parameter "q" is required.', { hint: Q_HINT });
  }
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > SEARCH_QUERY_MAX_LENGTH) {
    throw new ApiError('invalid_parameter', `Query parameter "q" must be 1 to ${SEARCH_QUERY_MAX_LENGTH} characters after trimming.`, { hint: Q_HINT });
  }
  return trimmed;
}

function typeParameter(value: string | undefined): SearchType | undefined {
  if (value === undefined) return undefined;
  if (!isSearchType(value)) {
    throw new ApiError('invalid_parameter', `Query parameter "type" must be one of: ${SEARCH_TYPES.join(', ')}.`, {
      hint: 'Leave type out to search everything.',
    });
  }
  return value;
}
