/**
 * The small request/response model every handler speaks. It is deliberately not the web
 * Request/Response: building those costs more than the rest of a read (docs/architecture.md), and
 * this shape runs unchanged behind node:http, behind Astro's dev server and inside tests.
 */
export interface ApiRequest {
  method: string;
  /** Path as received, still percent-encoded, without the query string. */
  path: string;
  query: URLSearchParams;
  /**
   * The query string as received (without `?`), where the host has it: a handler whose answer
   * depends on the query alone may keep answers by it and skip parsing the query again.
   */
  search?: string;
  /** Lower-case header names, as node:http gives them. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  clientIp: string;
  /** The id the response carries, as X-Request-Id and in error bodies (see `answeredId`). */
  requestId: string;
  /** Reads the body, refusing (with a `payload_too_large` ApiError) past `maxBytes` without reading the rest. */
  readBody(maxBytes: number): Promise<Buffer>;
}

export type HeaderMap = Record<string, string>;

export interface ApiResponse {
  status: number;
  headers: HeaderMap;
  body: string | Buffer | null;
  /** The body's length in bytes, where whoever made it knows it: a string's is otherwise counted for its Content-Length. */
  bodyBytes?: number;
}

/** The first value of a header, whether node gave a string or a list. */
export function headerValue(request: Pick<ApiRequest, 'headers'>, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
