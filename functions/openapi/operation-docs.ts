import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { SecurityRequirementObject } from 'openapi3-ts/oas30';
import { z } from 'zod';
import { batchResponseSchema } from '../batch/schema.ts';
import type { Config } from '../config/env.ts';
import { CONTACT_LIMITS, contactResultSchema, contactSchema, idempotencyKeyHeader } from '../contact/schema.ts';
import type { CurrentId } from '../operations/deprecation.ts';
import { jobCreatedSchema, jobIdParameter, jobRequestSchema, jobSchema } from '../jobs/schema.ts';
import {
  createKeySchema,
  issuedKeySchema,
  OAUTH_ERRORS,
  oauthErrorSchema,
  tokenRequestSchema,
  tokenResponseSchema,
} from '../keys/schema.ts';
import { oauthErrorStatus } from '../keys/token-handler.ts';
import { listProjectsQuery, projectListSchema, projectSchema, slugParameter } from '../projects/schema.ts';
import { searchQuery, searchResponseSchema } from '../search/schema.ts';
import { apiIndexSchema, healthSchema, sandboxPingSchema } from '../service/schema.ts';
import { batchRequestComponent } from './components.ts';
import type { ErrorVariant } from './error-responses.ts';
import type { ParameterName, ResponseHeaderName } from './headers.ts';
import { TOKEN_CLIENT } from './security.ts';

/** A success answer; document.ts adds the headers every response has and, where charged, RateLimit-*. */
export interface SuccessDoc {
  description: string;
  schema?: z.ZodType;
  headers?: ResponseHeaderName[];
}

/** What an operation's entry in functions/operations/operations.ts does not say: its parameters, bodies and answers. */
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

const json = (schema: z.ZodType, required: boolean) => ({ required, content: { 'application/json': { schema } } });

const notModified: SuccessDoc = {
  description: 'Not Modified: If-None-Match still matches; no body.',
  headers: ['ETag'],
};

export function operationDocs(config: Config): Record<DocumentedId, OperationDoc> {
  return {
    listProjects: {
      request: { query: listProjectsQuery },
      parameters: ['IfNoneMatch'],
      success: {
        200: { description: 'A page of projects.', schema: projectListSchema, headers: ['ETag'] },
        304: notModified,
      },
    },
    getProject: {
      request: { params: z.object({ slug: slugParameter }) },
      parameters: ['IfNoneMatch'],
      success: { 200: { description: 'The project.', schema: projectSchema, headers: ['ETag'] }, 304: notModified },
    },
    search: {
      request: { query: searchQuery },
      parameters: ['IfNoneMatch'],
      success: {
        200: { description: 'The best matches, best first.', schema: searchResponseSchema, headers: ['ETag'] },
        304: notModified,
      },
    },
    createContact: {
      request: {
        headers: z.object({
          'Idempotency-Key': idempotencyKeyHeader,
        }),
        body: json(contactSchema, true),
      },
      success: {
        200: {
          description: 'Stored, or a replay of the first answer for this key.',
          schema: contactResultSchema,
          headers: ['Idempotent-Replayed'],
        },
      },
      notes:
        `The body may be at most ${CONTACT_LIMITS.bodyMaxBytes} bytes. Keys are remembered for ${config.idempotencyTtlSeconds} seconds. ` +
        `In the sandbox, each client (IP, or /64 for IPv6) and each test key keeps at most ${config.sandboxStorageBytes} bytes of message text (name, email and message in UTF-8); ` +
        `a new sandbox message is always accepted and deletes the oldest ones that would go past that, and every sandbox message is deleted after ${config.sandboxRetentionSeconds} seconds.`,
    },
    batchOperations: {
      request: { body: json(batchRequestComponent(config.batchMaxOperations), true) },
      success: { 200: { description: 'Every operation succeeded.', schema: batchResponseSchema } },
      notes: `This server takes at most ${config.batchMaxOperations} operations per batch.`,
    },
    createJob: {
      request: { body: json(jobRequestSchema, false) },
      success: {
        202: {
          description: 'Accepted; poll the Location.',
          schema: jobCreatedSchema,
          headers: ['Location', 'Retry-After'],
        },
      },
      notes:
        `At most ${config.jobs.concurrency} jobs run at once and ${config.jobs.queueLimit} live and ${config.jobs.queueLimit} sandbox jobs may wait; beyond that the answer is 503 queue_full with Retry-After. ` +
        `One client (its IP, or its test key) may have ${config.jobs.queuePerClient} jobs waiting and ${config.jobs.runningPerClient} running; past that the answer is 429 too_many_jobs with Retry-After. Live jobs start before sandbox ones.`,
    },
    getJobStatus: {
      request: { params: z.object({ jobId: jobIdParameter }) },
      success: {
        200: {
          description: 'The job. Retry-After is sent while it is pending or running.',
          schema: jobSchema,
          headers: ['Retry-After'],
        },
      },
      notes: `A job and its result are kept for ${config.jobs.retentionSeconds} seconds after creation, and a client keeps only its ${config.jobs.resultsPerClient} most recently finished jobs: older ones answer job_not_found.`,
    },
    sandboxPing: {
      success: {
        200: { description: 'Pong, and whether the request ran in sandbox mode.', schema: sandboxPingSchema },
      },
    },
    createKey: {
      request: { body: json(createKeySchema, false) },
      success: { 201: { description: 'The new key; store it now, it is not shown again.', schema: issuedKeySchema } },
      notes: `A key lives ${config.testKeyTtlSeconds} seconds.`,
    },
    getApiIndex: {
      parameters: ['IfNoneMatch'],
      success: {
        200: { description: 'The index of the API.', schema: apiIndexSchema, headers: ['ETag'] },
        304: notModified,
      },
    },
    getHealth: {
      success: { 200: { description: 'The service can serve reads and reach its database.', schema: healthSchema } },
    },
    issueToken: {
      request: {
        body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: tokenRequestSchema } } },
      },
      success: { 200: { description: 'An access token.', schema: tokenResponseSchema } },
      extraErrors: OAUTH_ERRORS.map((error) => ({
        status: oauthErrorStatus(error),
        mediaType: 'application/json',
        schema: oauthErrorSchema,
        headers: oauthErrorStatus(error) === 401 ? ['WWW-Authenticate'] : [],
        line: `OAuthError \`${error}\` (RFC 6749 section 5.2)`,
      })),
      notes: `Tokens live ${config.tokenTtlSeconds} seconds, and never longer than their key.`,
      security: TOKEN_CLIENT,
    },
  };
}
