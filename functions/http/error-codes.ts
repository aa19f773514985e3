/**
 * Every error code the API can answer with, its HTTP status and what it means.
 * This table is the only place a code is defined: handlers, the OpenAPI description and the
 * developer pages all read it.
 */
export const ERROR_CODES = {
  invalid_parameter: { status: 400, title: 'Invalid parameter', meaning: 'A query or path parameter is malformed or out of range.' },
  unknown_parameter: { status: 400, title: 'Unknown parameter', meaning: 'The request names a query parameter this operation does not take.' },
  invalid_cursor: { status: 400, title: 'Invalid cursor', meaning: 'The cursor was not issued by this service, was altered, or belongs to another filter.' },
  unsupported_api_version: { status: 400, title: 'Unsupported API version', meaning: 'X-API-Version names a version this service does not serve.' },
  not_found: { status: 404, title: 'Not found', meaning: 'No resource or route exists at this path.' },
  project_not_found: { status: 404, title: 'Project not found', meaning: 'No project has this slug.' },
  method_not_allowed: { status: 405, title: 'Method not allowed', meaning: 'The path exists but does not accept this method; see the Allow header.' },
  payload_too_large: { status: 413, title: 'Payload too large', meaning: 'The request body is larger than the operation accepts.' },
  rate_limited: { status: 429, title: 'Too many requests', meaning: 'The client IP used up its quota; retry after the Retry-After seconds.' },
  internal_error: { status: 500, title: 'Internal error', meaning: 'An unexpected failure; report the requestId.' },
} as const satisfies Record<string, { status: number; title: string; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
