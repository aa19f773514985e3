import { ApiError, errorResponse } from './api-error.ts';
import { headerValue, type ApiRequest, type ApiResponse } from './types.ts';

/**
 * Every API answer may be read by scripts in any origin, without credentials (Fetch standard
 * CORS protocol): the API is public, and its reads are open to all. The headers clients need
 * are exposed. Writes across origins are another matter (see crossOriginWriter).
 */
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'ETag, Link, Location, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id, Idempotent-Replayed, Deprecation, Sunset',
};

/**
 * What a public document (discovery documents, Markdown twins, data documents, robots.txt, the
 * sitemap) carries so that a script in any origin may read it: no credentials, nothing exposed
 * beyond the CORS-safelisted response headers.
 */
export const OPEN_TO_ALL: Readonly<Record<string, string>> = { 'access-control-allow-origin': '*' };

const ALLOWED_REQUEST_HEADERS =
  'Content-Type, Idempotency-Key, If-None-Match, X-API-Version, X-Request-Id, Authorization, X-API-Key';

/** The request headers that carry an API key or token (request-context.ts reads them). */
const KEY_HEADERS = ['authorization', 'x-api-key'];

/** Methods a page on any origin may use: the reads. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Tells whether a request comes from a browser page on a foreign origin. A browser names the
 * page's origin in Origin on every POST (Fetch standard, "HTTP-request Origin header"); a request
 * without it comes from a script, an agent or a server, which can call the API directly anyway.
 * The site's own origin (SITE_URL) is not foreign, nor is the origin the request was sent to
 * (its Host), so the pages keep working wherever they are served from.
 */
export function crossOriginWriter(siteUrl: string): (request: ApiRequest) => boolean {
  const siteOrigin = new URL(siteUrl).origin;
  return (request) => {
    const origin = headerValue(request, 'origin');
    if (origin === undefined || origin === siteOrigin) return false;
    const requestHost = headerValue(request, 'host')?.toLowerCase();
    try {
      const { host, hostname } = new URL(origin);
      // A proxy may pass the host on without its port (nginx's $host).
      return host !== requestHost && hostname !== requestHost;
    } catch {
      // `null` (a sandboxed frame, a file) and anything else that is no origin.
      return true;
    }
  };
}

/** The refusal of a write from a foreign page that carries no valid key (403 `cross_origin_refused`). */
export function crossOriginRefused(): ApiError {
  return new ApiError(
    'cross_origin_refused',
    'A page on another origin may not send this request without an API key.',
    {
      hint: "Send a test key (X-API-Key, or Authorization: Bearer) from another origin; the site's own pages need none. See /auth.",
    },
  );
}

/**
 * The answer to a CORS preflight (OPTIONS with Access-Control-Request-Method). Reads are allowed
 * for every origin. A write (POST) is allowed for the site's own pages, and for a foreign page
 * that will send an API key (it asks for Authorization or X-API-Key); the write itself must then
 * carry a valid one (router.ts). Any other foreign write is refused here with 403 and no
 * Access-Control-Allow-Origin, so the browser never sends it.
 */
export function preflightAnswer(
  request: ApiRequest,
  allow: string,
  isForeign: (request: ApiRequest) => boolean,
  requestId: string,
): ApiResponse {
  const method = headerValue(request, 'access-control-request-method')?.trim().toUpperCase() ?? '';
  const foreignWithoutKey = isForeign(request) && !asksForKey(request);
  const vary = 'Origin, Access-Control-Request-Headers';
  // Without Access-Control-Request-Method it is a plain OPTIONS, not a preflight.
  if (foreignWithoutKey && method !== '' && !SAFE_METHODS.has(method)) {
    const refusal = errorResponse(crossOriginRefused(), requestId);
    Object.assign(refusal.headers, { allow, vary });
    return refusal;
  }
  const methods = foreignWithoutKey
    ? allow
        .split(', ')
        .filter((name) => SAFE_METHODS.has(name))
        .join(', ')
    : allow;
  return {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': methods,
      'access-control-allow-headers': ALLOWED_REQUEST_HEADERS,
      'access-control-max-age': '86400',
      allow,
      vary,
    },
    body: null,
  };
}

/** Whether a preflight announces a key header (Access-Control-Request-Headers, a comma-separated list). */
function asksForKey(request: ApiRequest): boolean {
  const asked = (headerValue(request, 'access-control-request-headers') ?? '').toLowerCase().split(',');
  return asked.some((name) => KEY_HEADERS.includes(name.trim()));
}
