import { ApiError } from './api-error.ts';
import { MAX_JSON_DEPTH, textNestsDeeperThan } from './json-depth.ts';
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
    throw new ApiError('unsupported_media_type', 'The request must be declared as JSON.', {
      hint: 'Send Content-Type: application/json, also with an empty body.',
    });
  }
}

/**
 * Parses a body as JSON; anything else is a 400 `malformed_json`, and JSON nesting deeper than
 * MAX_JSON_DEPTH levels a 400 `validation_failed`.
 */
export function parseJsonBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError('malformed_json', 'The body is not valid JSON.', {
      hint: 'Send a JSON object, for example {"name": "...", "email": "...", "message": "..."}.',
    });
  }
  if (textNestsDeeperThan(text)) {
    const problem = `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`;
    throw new ApiError('validation_failed', `The body ${problem}.`, {
      hint: 'Send the JSON object the operation describes in /openapi.json.',
      errors: [{ field: 'body', problem }],
    });
  }
  return parsed;
}

/**
 * Reads an optional JSON body: an empty body is `undefined`, anything else must be JSON. The
 * request must be declared as JSON even when empty: a POST without that Content-Type is a CORS
 * "simple request" (Fetch standard), which a foreign page could send without a preflight.
 */
export async function readOptionalJson(request: ApiRequest, maxBytes: number): Promise<unknown> {
  requireJsonContentType(request);
  const body = await request.readBody(maxBytes);
  return body.length === 0 ? undefined : parseJsonBody(body);
}
