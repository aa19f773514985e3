/** Headers an error carries by its nature, besides the ones every response has. */
type ErrorHeader = 'Retry-After' | 'RateLimit-Limit' | 'RateLimit-Remaining' | 'RateLimit-Reset' | 'WWW-Authenticate';

const RATE_LIMITED: readonly ErrorHeader[] = [
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
];
const RETRY_LATER: readonly ErrorHeader[] = ['Retry-After'];

export interface ErrorCodeSpec {
  status: number;
  title: string;
  meaning: string;
  /**
   * Rendered as an RFC 9457 problem document (`application/problem+json`) instead of the plain
   * Error shape. Only the getProject 404 is: a resource lookup, where generic HTTP clients
   * understand a problem document best.
   */
  problem?: true;
  /** Headers every answer with this code carries (Retry-After where waiting helps). */
  headers?: readonly ErrorHeader[];
}

/**
 * Every error code the API can answer with, its HTTP status and what it means.
 * This table is the only place a code is defined: handlers, the OpenAPI description and the
 * developer pages all read it.
 */
export const ERROR_CODES = {
  invalid_parameter: {
    status: 400,
    title: 'Invalid parameter',
    meaning: 'A query or path parameter is malformed or out of range.',
  },
  unknown_parameter: {
    status: 400,
    title: 'Unknown parameter',
    meaning: 'The request names a query parameter this operation does not take.',
  },
  too_many_parameters: {
    status: 400,
    title: 'Too many parameters',
    meaning:
      'The request has more query parameters than any operation takes, or an MCP tool call more arguments than any tool takes; the message gives the limit.',
  },
  invalid_cursor: {
    status: 400,
    title: 'Invalid cursor',
    meaning: 'The cursor was not issued by this service, was altered, or belongs to another filter.',
  },
  invalid_header: {
    status: 400,
    title: 'Invalid header',
    meaning: 'A request header has a value this operation does not accept.',
  },
  validation_failed: {
    status: 400,
    title: 'Validation failed',
    meaning: 'The body breaks one or more rules; `errors` lists each {field, problem}.',
  },
  malformed_json: { status: 400, title: 'Malformed JSON', meaning: 'The body is not valid JSON.' },
  idempotency_key_missing: {
    status: 400,
    title: 'Idempotency-Key missing',
    meaning: 'This operation needs an Idempotency-Key header.',
  },
  idempotency_key_invalid: {
    status: 400,
    title: 'Idempotency-Key invalid',
    meaning: 'The Idempotency-Key header is not a UUID.',
  },
  unknown_task: {
    status: 400,
    title: 'Unknown task',
    meaning: 'The job names a task this service does not run; the hint lists the tasks.',
  },
  too_many_messages: {
    status: 400,
    title: 'Too many messages',
    meaning: 'An MCP request holds more JSON-RPC messages than one request may carry.',
  },
  unsupported_api_version: {
    status: 400,
    title: 'Unsupported API version',
    meaning: 'X-API-Version names a version this service does not serve.',
  },
  cron_unauthorized: {
    status: 401,
    title: 'Cron secret missing',
    meaning:
      "A call of the scheduled pass (the Vercel cron target, /api/portfolio-cron) without `Authorization: Bearer` and the deployment's CRON_SECRET, or with another secret; nothing ran. The API itself never asks for credentials.",
    headers: ['WWW-Authenticate'],
  },
  cron_disabled: {
    status: 403,
    title: 'Cron disabled',
    meaning:
      'The scheduled pass (the Vercel cron target, /api/portfolio-cron) runs for nobody while the deployment has no CRON_SECRET; nothing ran.',
  },
  cross_origin_refused: {
    status: 403,
    title: 'Cross-origin write refused',
    meaning:
      "A browser page on another origin than the site's sent a write without a valid API key; only the site's own pages, and callers with a test key (X-API-Key or Authorization: Bearer), may write across origins. The contact form on the API origin (API_ORIGIN) takes posts only from the site's own pages: an Origin, or without one a Referer, naming the site; a post with neither is refused too (programs use POST /api/v1/contact).",
  },
  host_not_allowed: {
    status: 403,
    title: 'Host not allowed',
    meaning:
      "An MCP request names a Host the MCP servers do not answer for (DNS rebinding protection): the site's own host name, and the names in MCP_ALLOWED_HOSTS, are served.",
  },
  not_found: { status: 404, title: 'Not found', meaning: 'No resource or route exists at this path.' },
  project_not_found: { status: 404, title: 'Project not found', meaning: 'No project has this slug.', problem: true },
  job_not_found: {
    status: 404,
    title: 'Job not found',
    meaning:
      "No job has this id, or it is gone: expired, or older than the client's most recent finished jobs that are kept.",
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    meaning: 'The path exists but does not accept this method; see the Allow header.',
  },
  idempotency_request_in_progress: {
    status: 409,
    title: 'Request in progress',
    meaning: 'A request with this Idempotency-Key is still being processed; retry shortly.',
    headers: RETRY_LATER,
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    meaning: 'The request body is larger than the operation accepts.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    meaning: 'The body must be sent as application/json.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency-Key reused',
    meaning: 'This Idempotency-Key was already used with a different payload.',
  },
  batch_failed: {
    status: 422,
    title: 'Batch failed',
    meaning: 'At least one operation of the batch failed, so none was returned; `errors` lists each failure.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    meaning: 'The client IP used up its quota; retry after the Retry-After seconds.',
    headers: RATE_LIMITED,
  },
  too_many_jobs: {
    status: 429,
    title: 'Too many jobs',
    meaning:
      'This client (its IP, or its test key) already has its whole share of jobs waiting; retry after Retry-After, once one of them has started.',
    headers: RETRY_LATER,
  },
  internal_error: { status: 500, title: 'Internal error', meaning: 'An unexpected failure; report the requestId.' },
  queue_full: {
    status: 503,
    title: 'Queue full',
    meaning: 'Too many jobs are waiting; retry after Retry-After.',
    headers: RETRY_LATER,
  },
  build_mismatch: {
    status: 503,
    title: 'Build mismatch',
    meaning:
      'This deployment runs with other settings than the build its pages were made from (a function whose SITE_URL, say, differs from the one the build used); nothing was done. It answers again once its owner rebuilds and redeploys, as the hint says; retry after Retry-After.',
    headers: RETRY_LATER,
  },
  storage_unavailable: {
    status: 503,
    title: 'Storage unavailable',
    meaning:
      'The service cannot write right now (for example a full disk, or its database restarting); nothing was stored. Retry after Retry-After.',
    headers: RETRY_LATER,
  },
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;
