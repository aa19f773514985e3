/**
 * The API is public and read by scripts in any origin, without credentials, so every origin
 * may call it (Fetch standard CORS protocol); the headers clients need are exposed.
 */
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'ETag, Link, Location, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id, Idempotent-Replayed, Deprecation, Sunset',
};

/** Answer to a preflight (OPTIONS with Access-Control-Request-Method). */
export function preflightHeaders(allow: string): Record<string, string> {
  return {
    ...CORS_HEADERS,
    'access-control-allow-methods': allow,
    'access-control-allow-headers': 'Content-Type, Idempotency-Key, If-None-Match, X-API-Version, X-Request-Id',
    'access-control-max-age': '86400',
    allow,
  };
}
