import type { ErrorCode } from '../http/error-codes.ts';
import { BODY_BYTES_PER_REQUEST } from '../config/fixed-limits.ts';
import type { QuotaName } from '../limits/quotas.ts';

/** What is known about an operation without running it: the source for routing, OpenAPI and docs. */
export interface OperationSpec {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  description: string;
  tag: 'Projects' | 'Contact' | 'Batch' | 'Jobs' | 'Sandbox' | 'Keys' | 'Search' | 'OAuth' | 'Service';
  /** Set on deprecated aliases: the operation that replaces this one (see functions/operations/deprecation.ts). */
  deprecatedFor?: string;
  /**
   * Charged by the router before the handler runs (see Route.quota): every request counts, an
   * invalid one too, so no request works the service for free.
   */
  quota?: QuotaName;
  /**
   * Charged by the handler itself, besides `quota`, because the cost depends on the request: a
   * batch counts one read per further operation, a contact message counts once it is valid, and
   * a key counts per client IP whatever the caller holds. The handler charges it through its
   * request context (`context.charge`), and the OpenAPI text names it.
   */
  handlerQuota?: QuotaName;
  /** Error codes this operation can answer with, besides the ones every operation shares. */
  errors: readonly ErrorCode[];
}

/** Errors any operation can answer with. */
export const COMMON_ERRORS: readonly ErrorCode[] = [
  'unknown_parameter',
  'too_many_parameters',
  'invalid_parameter',
  'invalid_header',
  'unsupported_api_version',
  'internal_error',
  'build_mismatch',
];

/**
 * Every operation of the API by operationId, top to bottom: these ids are the API's public
 * names (OpenAPI operationId, batch `op`, search results), so they never change.
 * functions/app/routes.ts attaches the handlers; the OpenAPI description and the developer pages
 * are generated from this table.
 */
export const OPERATIONS = {
  listProjects: {
    method: 'GET',
    path: '/api/v1/projects',
    summary: 'List projects',
    description:
      'A page of projects in a stable order (newest year first), optionally filtered by domain or stack. Follow pagination.nextCursor for the next page; the cursor remembers the filter.',
    tag: 'Projects',
    quota: 'read',
    errors: ['invalid_cursor', 'rate_limited'],
  },
  getProject: {
    method: 'GET',
    path: '/api/v1/projects/{slug}',
    summary: 'Get a project',
    description:
      'One project by its slug, the same object the list returns. An unknown slug is an RFC 9457 problem document.',
    tag: 'Projects',
    quota: 'read',
    errors: ['project_not_found', 'rate_limited'],
  },
  search: {
    method: 'GET',
    path: '/api/search',
    summary: 'Search the site',
    description:
      "Full-text search over projects, documentation pages, API operations and MCP tools, with prefix and typo-tolerant matching; titles weigh most. Answers {query, total, results} with each result's type, title, absolute url, a plain-text snippet and its score. Filter with type, cap with limit (1 to 50, default 10).",
    tag: 'Search',
    quota: 'read',
    errors: ['rate_limited'],
  },
  createContact: {
    method: 'POST',
    path: '/api/v1/contact',
    summary: 'Send the owner a message',
    description:
      'Stores a message for the owner, exactly once per Idempotency-Key. A retry with the same key and payload replays the first answer with Idempotent-Replayed: true. Obvious spam (more than three links, a name that is a link or the email, a message that is only a link) gets the same answer but is kept apart, and the owner is not notified of it.',
    tag: 'Contact',
    quota: 'read',
    handlerQuota: 'contact',
    errors: [
      'cross_origin_refused',
      'validation_failed',
      'malformed_json',
      'idempotency_key_missing',
      'idempotency_key_invalid',
      'idempotency_request_in_progress',
      'payload_too_large',
      'unsupported_media_type',
      'idempotency_key_reused',
      'rate_limited',
      'storage_unavailable',
    ],
  },
  batchOperations: {
    method: 'POST',
    path: '/api/v1/batch',
    summary: 'Run several reads atomically',
    description: `Resolves up to BATCH_MAX_OPERATIONS read operations against one consistent snapshot. If any fails, nothing is returned and a 422 lists every failure. Each operation counts as one read, and a body over ${BODY_BYTES_PER_REQUEST / 1024} KiB at least one read per started ${BODY_BYTES_PER_REQUEST / 1024} KiB.`,
    tag: 'Batch',
    quota: 'read',
    handlerQuota: 'read',
    errors: [
      'cross_origin_refused',
      'validation_failed',
      'malformed_json',
      'unsupported_media_type',
      'payload_too_large',
      'batch_failed',
      'rate_limited',
    ],
  },
  createJob: {
    method: 'POST',
    path: '/api/v1/jobs',
    summary: 'Start an asynchronous job',
    description: 'Queues a task and answers 202 with the job id and the URL to poll (also in Location).',
    tag: 'Jobs',
    quota: 'read',
    errors: [
      'cross_origin_refused',
      'validation_failed',
      'unknown_task',
      'malformed_json',
      'unsupported_media_type',
      'payload_too_large',
      'queue_full',
      'too_many_jobs',
      'rate_limited',
      'storage_unavailable',
    ],
  },
  getJobStatus: {
    method: 'GET',
    path: '/api/v1/jobs/{jobId}',
    summary: 'Get a job',
    description:
      'The state of a job: status, progress from 0 to 1, and the result once it succeeded. While it runs, Retry-After suggests when to poll again.',
    tag: 'Jobs',
    quota: 'read',
    errors: ['job_not_found', 'rate_limited'],
  },
  sandboxPing: {
    method: 'GET',
    path: '/api/v1/sandbox/ping',
    summary: 'Check sandbox mode',
    description: 'Answers {pong: true, sandbox} telling whether this request runs in sandbox mode.',
    tag: 'Sandbox',
    quota: 'read',
    errors: ['rate_limited'],
  },
  createKey: {
    method: 'POST',
    path: '/api/v1/keys',
    summary: 'Create a test API key',
    description:
      'A new test key, shown once and stored only as a hash. A key selects sandbox mode and the test quota tier. Rate limited per IP.',
    tag: 'Keys',
    quota: 'read',
    handlerQuota: 'keys',
    errors: [
      'cross_origin_refused',
      'validation_failed',
      'malformed_json',
      'unsupported_media_type',
      'payload_too_large',
      'rate_limited',
      'storage_unavailable',
    ],
  },
  getApiIndex: {
    method: 'GET',
    path: '/api/v1',
    summary: 'List the API and its documents',
    description:
      "The API's entry point (the api-catalog's anchor): links to its OpenAPI descriptions, documentation, catalog, OAuth metadata and health, and every current operation by method and path.",
    tag: 'Service',
    quota: 'read',
    errors: ['rate_limited'],
  },
  getHealth: {
    method: 'GET',
    path: '/api/health',
    summary: 'Check the service',
    description:
      'Answers {status: "ok"} while the service can serve reads and reach its database; the api-catalog points here as the status resource.',
    tag: 'Service',
    quota: 'read',
    errors: ['storage_unavailable', 'rate_limited'],
  },
  listProjectsUnversioned: {
    method: 'GET',
    path: '/api/projects',
    summary: 'List projects (deprecated alias)',
    description:
      'Deprecated: use GET /api/v1/projects. Answers exactly like it, with Deprecation, Sunset and Link headers.',
    tag: 'Projects',
    quota: 'read',
    errors: ['invalid_cursor', 'rate_limited'],
    deprecatedFor: 'listProjects',
  },
  getProjectUnversioned: {
    method: 'GET',
    path: '/api/projects/{slug}',
    summary: 'Get a project (deprecated alias)',
    description:
      'Deprecated: use GET /api/v1/projects/{slug}. Answers exactly like it, with Deprecation, Sunset and Link headers.',
    tag: 'Projects',
    quota: 'read',
    errors: ['project_not_found', 'rate_limited'],
    deprecatedFor: 'getProject',
  },
  issueToken: {
    method: 'POST',
    path: '/oauth/token',
    summary: 'Get an access token',
    description:
      'OAuth 2.0 client credentials grant (RFC 6749 section 4.4): client_id is a keyId, client_secret its key. Errors follow RFC 6749 section 5.2.',
    tag: 'OAuth',
    quota: 'read',
    errors: ['cross_origin_refused', 'rate_limited'],
  },
} as const satisfies Record<string, OperationSpec>;

export type OperationId = keyof typeof OPERATIONS;
