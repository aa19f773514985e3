/**
 * What the search covers and its limits. Kept free of Node and Astro imports: the API, the
 * /search page and the browser script (src/scripts/search.ts) all read it.
 */
export const SEARCH_TYPES = ['project', 'doc', 'operation', 'mcp_tool'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** How each type is named to people (the page's filter and each result's label). */
export const SEARCH_TYPE_LABELS: Record<SearchType, string> = {
  project: 'Project',
  doc: 'Documentation',
  operation: 'API operation',
  mcp_tool: 'MCP tool',
};

/** The `q` parameter, after trimming. */
export const SEARCH_QUERY_MAX_LENGTH = 200;

/** The `limit` parameter of GET /api/search. */
export const SEARCH_LIMIT = { min: 1, max: 50, default: 10 } as const;

/** Results the /search page shows, with or without JavaScript. */
export const SEARCH_PAGE_LIMIT = 20;

export function isSearchType(value: string): value is SearchType {
  return (SEARCH_TYPES as readonly string[]).includes(value);
}

/** The sentence announcing a search's outcome, the same on the server-rendered page and in the script. */
export function resultSummary(query: string, total: number, shown: number): string {
  const quoted = `“${query}”`;
  if (total === 0) return `No results for ${quoted}. Try fewer or shorter words.`;
  if (shown < total) return `Showing the first ${shown} of ${total} results for ${quoted}.`;
  return `${total} ${total === 1 ? 'result' : 'results'} for ${quoted}.`;
}
