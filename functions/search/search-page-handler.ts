import { ApiError } from '../http/api-error.ts';
import { clientKeyOf } from '../http/client-ip.ts';
import { methodNotAllowed } from '../http/method-not-allowed.ts';
import type { ApiRequest, ApiResponse, HeaderMap } from '../http/types.ts';
import { charge } from '../limits/charge.ts';
import type { QuotaLimiter } from '../limits/rate-limiter.ts';
import type { SearchIndex } from './search-index.ts';
import type { SearchPage, SearchPageState } from './search-page.ts';
import { isSearchType, resultSummary, SEARCH_PAGE_LIMIT, SEARCH_QUERY_MAX_LENGTH } from './search-types.ts';

const HTML = 'text/html; charset=utf-8';

/**
 * /search for browsers without JavaScript: the form submits here with GET, and the server fills
 * the prerendered page with the results. It is lenient where the API is strict (an unknown type
 * searches everything, other parameters are ignored), since a person reads the answer, and it
 * counts each search against the same read quota as the API.
 */
export function searchPageHandler(index: SearchIndex, page: SearchPage, limiter: QuotaLimiter) {
  const html = (status: number, state: SearchPageState, headers: HeaderMap = {}): ApiResponse => ({
    status,
    headers: { 'content-type': HTML, 'cache-control': 'no-store', ...headers },
    body: page.render(state),
  });

  return async (request: ApiRequest): Promise<ApiResponse> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET, HEAD');
    const query = (request.query.get('q') ?? '').trim();
    const typeValue = request.query.get('type') ?? '';
    const type = isSearchType(typeValue) ? typeValue : undefined;
    if (query === '') return html(200, { query, type });
    if (query.length > SEARCH_QUERY_MAX_LENGTH) {
      return html(400, {
        query,
        type,
        status: `Please shorten your search to at most ${SEARCH_QUERY_MAX_LENGTH} characters.`,
      });
    }

    let quotaHeaders: HeaderMap;
    try {
      quotaHeaders = await charge(limiter, clientKeyOf(request.clientIp), 1, 'searches');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return html(error.status, { query, type, status: `${error.message} ${error.hint ?? ''}`.trim() }, error.headers);
    }
    const { total, hits } = index.search(query, { type, limit: SEARCH_PAGE_LIMIT });
    return html(200, { query, type, status: resultSummary(query, total, hits.length), hits }, quotaHeaders);
  };
}
