import { ApiError } from '../http/api-error.ts';
import { OPEN_TO_ALL } from '../http/cors.ts';
import { methodNotAllowed } from '../http/method-not-allowed.ts';
import { prefersMarkdown } from '../http/prefers-markdown.ts';
import type { RequestContext } from '../http/request-context.ts';
import { headerValue, type ApiRequest, type ApiResponse, type HeaderMap } from '../http/types.ts';
import { MARKDOWN, markdownAlternateLink } from '../site/markdown-twin.ts';
import { withLlmsTxtPointer } from '../site/llms-txt-pointer.ts';
import { linksToSite } from '../site/links-to-site.ts';
import { publicUrl, type PublicOrigins } from '../config/public-urls.ts';
import type { SearchEngine } from './load-search-index.ts';
import { searchAsMarkdown } from './search-markdown.ts';
import { searchTwinQuery, type SearchPage, type SearchPageState } from './search-page.ts';
import { isSearchType, resultSummary, SEARCH_PAGE_LIMIT, SEARCH_QUERY_MAX_LENGTH } from './search-types.ts';

const HTML = 'text/html; charset=utf-8';

/** A search's outcome, rendered as HTML or Markdown: one computation for both. */
interface SearchOutcome {
  status: number;
  state: SearchPageState;
  headers: HeaderMap;
}

/**
 * /search for browsers without JavaScript, and its Markdown twin for agents (/search.md, or
 * /search with Accept: text/markdown): the form submits here with GET, and the server fills the
 * prerendered page, or writes the Markdown, from the same results. It is lenient where the API is
 * strict (an unknown type searches everything, other parameters are ignored), since a person
 * reads the answer, and it counts each search against the same read quota as the API.
 */
export function searchPageHandler(index: SearchEngine, page: SearchPage, origins: PublicOrigins) {
  const { siteUrl, apiOrigin } = origins;
  async function search(request: ApiRequest, context: RequestContext): Promise<SearchOutcome> {
    const query = (request.query.get('q') ?? '').trim();
    const typeValue = request.query.get('type') ?? '';
    const type = isSearchType(typeValue) ? typeValue : undefined;
    if (query === '') return { status: 200, state: { query, type }, headers: {} };
    if (query.length > SEARCH_QUERY_MAX_LENGTH) {
      const status = `Please shorten your search to at most ${SEARCH_QUERY_MAX_LENGTH} characters.`;
      return { status: 400, state: { query, type, status }, headers: {} };
    }
    try {
      const quotaHeaders = await context.charge('read', 1, 'searches');
      const { total, hits } = index.search(query, { type, limit: SEARCH_PAGE_LIMIT });
      return {
        status: 200,
        state: { query, type, status: resultSummary(query, total, hits.length), hits },
        headers: quotaHeaders,
      };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const status = `${error.message} ${error.hint ?? ''}`.trim();
      return { status: error.status, state: { query, type, status }, headers: error.headers };
    }
  }

  /** `context`: a visitor of the page (RequestContexts.visitor), counted by client IP. */
  return async (request: ApiRequest, context: RequestContext): Promise<ApiResponse> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET, HEAD');
    const { status, state, headers } = await search(request, context);
    // /search answers by Accept; /search.md is always Markdown.
    const twinUrl = request.path.endsWith('.md');
    const vary: HeaderMap = twinUrl ? {} : { vary: 'Accept' };
    const common = { 'cache-control': 'no-store', ...vary, ...headers };
    if (twinUrl || prefersMarkdown(headerValue(request, 'accept'))) {
      return {
        status,
        headers: { 'content-type': MARKDOWN, ...OPEN_TO_ALL, ...common },
        body: withLlmsTxtPointer(searchAsMarkdown(state, origins), siteUrl),
      };
    }
    const twin = publicUrl(origins, `/search.md${searchTwinQuery(state)}`);
    return {
      status,
      headers: { 'content-type': HTML, link: markdownAlternateLink(twin), ...common },
      // From an origin of its own, the results lead back to the pages on SITE_URL.
      body: apiOrigin === null ? page.render(state) : linksToSite(page.render(state), siteUrl),
    };
  };
}
