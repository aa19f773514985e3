import { ApiError } from './api-error.ts';
import { headerValue, type ApiRequest } from './types.ts';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const FORM_MEDIA_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** Whether the body is declared as a plain HTML form post (the no-JS contact form, the OAuth token request). */
export function isFormContentType(request: ApiRequest): boolean {
  return FORM_MEDIA_TYPE.test(headerValue(request, 'content-type') ?? '');
}

/** Refuses a body that is not declared as JSON (415 `unsupported_media_type`). */
export function requireJsonContentType(request: ApiRequest): void {
  if (!JSON_MEDIA_TYPE.test(headerValue(request, 'content-type') ?? '')) {
    throw new ApiError('unsupported_media_type', 'The body must be JSON.', { hint: 'Send Content-Type: application/json.' });
  }
}

/** Parses a body as JSON; anything else is a 400 `malformed_json`. */
export function parseJsonBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ApiError('malformed_json', 'The body is not valid JSON.', {
      hint: 'Send a JSON object, for example {"name": "...", "email": "...", "message": "..."}.',
    });
  }
}

/** Reads an optional JSON body: an empty body (or none) is `undefined`, anything else must be JSON. */
export async function readOptionalJson(request: ApiRequest, maxBytes: number): Promise<unknown> {
  const body = await request.readBody(maxBytes);
  if (body.length === 0) return undefined;
  requireJsonContentType(request);
  return parseJsonBody(body);
}
