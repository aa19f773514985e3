import { strongEtag, ifNoneMatchHits } from './etag.ts';
import { headerValue, type ApiRequest, type ApiResponse, type HeaderMap } from './types.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON answer that no cache keeps (RFC 9111 section 5.2.2.5): writes, errors and anything
 * that carries the caller's own state. `headers` add to or override the defaults.
 */
export function jsonResponse(status: number, value: unknown, headers: HeaderMap = {}): ApiResponse {
  return jsonTextResponse(status, JSON.stringify(value), headers);
}

/** The same for JSON already serialised (an idempotent answer replayed byte for byte). */
export function jsonTextResponse(status: number, json: string, headers: HeaderMap = {}): ApiResponse {
  return { status, headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...headers }, body: json };
}

/**
 * A JSON representation with its strong tag, computed once and reusable across requests. The
 * body is kept encoded: a string body would be encoded to UTF-8 again for every answer (and
 * measured again for its Content-Length).
 */
export interface Representation {
  body: Buffer;
  etag: string;
}

export function representation(value: unknown): Representation {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: strongEtag(body) };
}

/**
 * Read-only data, cacheable briefly and revalidated with the ETag, but only by the caller's own
 * cache: the answer carries that caller's quota (RateLimit-*) and tier, which a shared cache
 * would hand to everyone else (RFC 9111 section 5.2.2.7).
 */
const READ_CACHE = 'private, max-age=60, stale-while-revalidate=300';

/**
 * A 200 with the representation, or a 304 without a body when If-None-Match already has it
 * (RFC 9110 section 13.1.2 and 15.4.5: the 304 repeats ETag and Cache-Control).
 */
export function conditionalJson(request: ApiRequest, rep: Representation): ApiResponse {
  if (ifNoneMatchHits(headerValue(request, 'if-none-match'), rep.etag)) {
    return { status: 304, headers: { etag: rep.etag, 'cache-control': READ_CACHE }, body: null };
  }
  return {
    status: 200,
    headers: { 'content-type': JSON_TYPE, etag: rep.etag, 'cache-control': READ_CACHE },
    body: rep.body,
  };
}
