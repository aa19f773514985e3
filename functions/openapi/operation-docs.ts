import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { SecurityRequirementObject } from 'openapi3-ts/oas30';
import type { Config } from '../config/env.ts';
import { CONTACT_LIMITS } from '../contact/schema.ts';
import type { CurrentId } from '../deprecation.ts';
import { OAUTH_ERRORS, oauthErrorStatus } from '../keys/token-handler.ts';
import { IDEMPOTENCY_KEY, JOB_ID_PARAMETER, LIST_QUERY, SEARCH_QUERY, SLUG_PARAMETER } from '../parameters.ts';
import { oauthErrorSchema } from './error-schemas.ts';
import type { ErrorVariant } from './error-responses.ts';
import type { ParameterName, ResponseHeaderName } from './headers.ts';
import { jobCreatedSchema, jobRequestSchema, jobSchema } from './job-schemas.ts';
import * as bodies from './resource-schemas.ts';
import { TOKEN_CLIENT } from './security.ts';
import { z } from './zod.ts';

/** A success answer; document.ts adds the headers every response has and, where charged, RateLimit-*. */
export interface SuccessDoc {
  description: string;
  schema?: z.ZodTypeAny;
  headers?: ResponseHeaderName[];
}

/** What an operation's entry in functions/operations.ts does not say: its parameters, bodies and answers. */
export interface OperationDoc {
  request?: RouteConfig['request'];
  parameters?: ParameterName[];
  success: Record<number, SuccessDoc>;
  /** Failures outside the Error shape (the token endpoint's RFC 6749 errors). */
  extraErrors?: ErrorVariant[];
  /** Sentences generated from the configuration, appended to the description. */
  notes?: string;
  security?: SecurityRequirementObject[];
}

/** Deprecated aliases are documented like their successor, so only current operations have docs. */
export type DocumentedId = CurrentId;

const json = (schema: z.ZodTypeAny, required: boolean) => ({ required, content: { 'application/json': { schema } } });

const notModified: SuccessDoc = { description: 'Not Modified: If-None-Match still matches; no body.', headers: ['ETag'] };

export function operationDocs(config: Config): Record<DocumentedId, OperationDoc> {
  return {
    listProjects: {
      request: { query: z.object(LIST_QUERY) },
      parameters: ['IfNoneMatch'],
      success: { 200: { description: 'A page of projects.', schema: bodies.projectListSchema, headers: ['ETag'] }, 304: notModified },
    },
    getProject: {
      request: { params: z.object({ slug: SLUG_PARAMETER }) },
      parameters: ['IfNoneMatch'],
      success: { 200: { description: 'The project.', schema: bodies.projectComponent, headers: ['ETag'] }, 304: notModified },
    },
    search: {
      request: { query: z.object(SEARCH_QUERY) },
      parameters: ['IfNoneMatch'],
      success: { 200: { description: 'The best matches, best first.', schema: bodies.searchResultsSchema, headers: ['ETag'] }, 304: notModified },
    },
    createContact: {
      request: {
        headers: z.object({
          'Idempotency-Key': IDEMPOTENCY_KEY,
        }),
        body: json(bodies.contactRequestSchema, true),
      },
      success: { 200: { description: 'Stored, or a replay of the first answer for this key.', schema: bodies.contactResultSchema, headers: ['Idempotent-Replayed'] } },
      notes: `The body may be at most ${CONTACT_LIMITS.bodyMaxBytes} bytes. Keys are remembered for ${config.idempotencyTtlSeconds} seconds.`,
    },
    batchOperations: {
      request: { body: json(bodies.batchRequestComponent(config.batchMaxOperations), true) },
      success: { 200: { description: 'Every operation succeeded.', schema: bodies.batchResponseSchema } },
      notes: `This server takes at most ${config.batchMaxOperations} operations per batch.`,
    },
    createJob: {
      request: { body: json(jobRequestSchema, false) },
      success: { 202: { description: 'Accepted; poll the Location.', schema: jobCreatedSchema, headers: ['Location', 'Retry-After'] } },
      notes:
        `At most ${config.jobs.concurrency} jobs run at once and ${config.jobs.queueLimit} live and ${config.jobs.queueLimit} sandbox jobs may wait; beyond that the answer is 503 queue_full with Retry-After. ` +
        `One client (its IP, or its test key) may have ${config.jobs.queuePerClient} jobs waiting and ${config.jobs.runningPerClient} running; past that the answer is 429 too_many_jobs with Retry-After. Live jobs start before sandbox ones.`,
    },
    getJobStatus: {
      request: { params: z.object({ jobId: JOB_ID_PARAMETER }) },
      success: { 200: { description: 'The job. Retry-After is sent while it is pending or running.', schema: jobSchema, headers: ['Retry-After'] } },
      notes: `A job and its result are kept for ${config.jobs.retentionSeconds} seconds after creation, and a client keeps only its ${config.jobs.resultsPerClient} most recently finished jobs: older ones answer job_not_found.`,
    },
    sandboxPing: {
      success: { 200: { description: 'Pong, and whether the request ran in sandbox mode.', schema: bodies.sandboxPingSchema } },
    },
    createKey: {
      request: { body: json(bodies.keyRequestSchema, false) },
      success: { 201: { description: 'The new key; store it now, it is not shown again.', schema: bodies.issuedKeySchema } },
      notes: `A key lives ${config.testKeyTtlSeconds} seconds.`,
    },
    getHealth: {
      success: { 200: { description: 'The service can serve reads and reach its database.', schema: bodies.healthSchema } },
    },
    issueToken: {
      request: { body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: bodies.tokenRequestSchema } } } },
      success: { 200: { description: 'An access token.', schema: bodies.tokenResponseSchema } },
      extraErrors: OAUTH_ERRORS.map((error) => ({
        status: oauthErrorStatus(error),
        mediaType: 'application/json',
        schema: oauthErrorSchema,
        line: `OAuthError \`${error}\` (RFC 6749 section 5.2)`,
      })),
      notes: `Tokens live ${config.tokenTtlSeconds} seconds, and never longer than their key.`,
      security: TOKEN_CLIENT,
    },
  };
}
