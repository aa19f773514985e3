/**
 * The /search page's WebMCP tool, search_portfolio: the page's own search (GET searchQuery) with
 * the agent's arguments as the query string, so the API checks them as it checks any client's.
 * A query string carries no JSON types, so those are checked against the tool's schema first.
 */
import { resultSummary } from '../../functions/search/search-types.ts';
import { apiResult, invalidInput, registerPageTools, unreachable } from './webmcp.ts';
import { argumentTypeProblem } from './webmcp-input.ts';

registerPageTools({
  search_portfolio: async (input, api, inputSchema) => {
    const problem = argumentTypeProblem(inputSchema, input);
    if (problem !== undefined) return invalidInput(problem);
    try {
      const response = await fetch(`${api}?${queryString(input)}`, { headers: { accept: 'application/json' } });
      return await apiResult(response, (body) => {
        const results = Array.isArray(body.results) ? body.results : [];
        return resultSummary(String(body.query), Number(body.total ?? results.length), results.length);
      });
    } catch {
      return unreachable('Call search_portfolio again.');
    }
  },
});

/**
 * Strings, numbers and booleans go as their text; anything else as JSON, which the API then
 * refuses in its own words (as the MCP search tool sends its arguments).
 */
function queryString(input: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
    query.set(name, scalar ? String(value) : JSON.stringify(value));
  }
  return query;
}
