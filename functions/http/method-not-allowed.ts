import type { ApiResponse } from './types.ts';

/**
 * The 405 of a server-filled page (RFC 9110 section 15.5.6: with Allow). Pages answer people,
 * so the body is plain text rather than the API's Error shape.
 */
export function methodNotAllowed(allow: string): ApiResponse {
  return { status: 405, headers: { allow, 'content-type': 'text/plain; charset=utf-8' }, body: 'Method Not Allowed\n' };
}
