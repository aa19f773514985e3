import { BATCH_OPS, batchRequestSchema } from '../batch/batch-handler.ts';
import { contactSchema } from '../contact/schema.ts';
import type { IssuedKey } from '../keys/key-service.ts';
import { createKeySchema } from '../keys/key-handlers.ts';
import { TEST_KEY_PATTERN } from '../keys/key-format.ts';
import { LIST_LIMIT } from '../projects/list-projects.ts';
import { projectSchema } from '../projects/schema.ts';
import { searchResponseSchema } from '../search/schema.ts';
import { jobSchema } from './job-schemas.ts';
import { z } from './zod.ts';

// The request and response bodies of every operation but the jobs (job-schemas.ts), each named
// as a component. Where the handlers already validate with a zod schema, that schema is used.

export const projectComponent = projectSchema.openapi('Project', {
  description: 'A project of the portfolio. `repository`, `website` and `updated` are null when the owner gave none.',
});

export const paginationSchema = z
  .object({
    nextCursor: z.string().nullable().openapi({ description: 'Opaque cursor for the next page; null when there is none. It remembers the filter.' }),
    hasMore: z.boolean(),
    limit: z.number().int().min(LIST_LIMIT.min).max(LIST_LIMIT.max).optional().openapi({ description: 'Page size in effect.' }),
  })
  .openapi('Pagination');

export const projectListSchema = z
  .object({ data: z.array(projectComponent), pagination: paginationSchema })
  .openapi('ProjectList', { description: 'One page of projects.' });

export const contactRequestSchema = contactSchema.openapi('ContactSubmission', {
  description: 'A message for the owner. Surrounding white space is trimmed before the lengths are checked; unknown fields are refused.',
});

export const contactResultSchema = z.object({ success: z.boolean() }).openapi('ContactResult');

/** The batch request depends on BATCH_MAX_OPERATIONS, so it is made per document. */
export function batchRequestComponent(maxOperations: number) {
  return batchRequestSchema(maxOperations).openapi('BatchRequest', {
    description: `1 to ${maxOperations} read operations, each naming the operationId it mirrors and the slug or job id it reads.`,
  });
}

export const batchResponseSchema = z
  .object({
    results: z.array(
      z
        .object({
          index: z.number().int().min(0).openapi({ description: 'Position of the operation in the request.' }),
          op: z.enum(BATCH_OPS),
          id: z.string(),
          status: z.number().int().openapi({ description: 'The status the single operation would have answered with.' }),
          data: z.union([projectComponent, jobSchema]).openapi({ description: 'A Project for getProject, a Job for getJobStatus.' }),
        })
        .openapi('BatchResult'),
    ),
  })
  .openapi('BatchResponse', { description: 'One result per operation, in request order.' });

export const sandboxPingSchema = z
  .object({
    pong: z.boolean(),
    sandbox: z.boolean().openapi({ description: 'Whether this request ran in sandbox mode.' }),
  })
  .openapi('SandboxPing');

export const keyRequestSchema = createKeySchema.openapi('KeyRequest', { description: 'Optional; a label helps you tell your keys apart.' });

export const issuedKeySchema = z
  .object({
    key: z.string().regex(TEST_KEY_PATTERN).openapi({ description: 'The test key. It is shown only this once; the service keeps only its hash.' }),
    keyId: z.string().openapi({ description: 'Public identifier of the key; the client_id for POST /oauth/token.' }),
    mode: z.enum(['test']),
    label: z.string().nullable(),
    createdAt: z.string().datetime(),
    expiresAt: z.string().datetime(),
  })
  .openapi('IssuedKey') satisfies z.ZodType<IssuedKey>;

/** RFC 6749 section 4.4.2. The client may authenticate with HTTP Basic instead of the two client fields. */
export const tokenRequestSchema = z
  .object({
    grant_type: z.enum(['client_credentials']),
    client_id: z.string().optional().openapi({ description: 'The keyId, unless sent with HTTP Basic.' }),
    client_secret: z.string().optional().openapi({ description: 'The test key, unless sent with HTTP Basic.' }),
    scope: z.string().optional().openapi({ description: 'This server defines no scopes: leave it out or empty.' }),
  })
  .openapi('TokenRequest');

export const tokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.enum(['Bearer']),
    expires_in: z.number().int().min(0).openapi({ description: 'Seconds until the token expires; never past the key itself.' }),
  })
  .openapi('TokenResponse', { description: 'RFC 6749 section 5.1. Send the token as `Authorization: Bearer <token>`; it acts exactly like its key.' });

export const searchResultsSchema = searchResponseSchema.openapi('SearchResults', {
  description: 'Matches across projects, documentation, API operations and MCP tools; `url` is absolute and `snippet` plain text.',
});

/** GET /api/health (functions/health.ts). */
export const healthSchema = z
  .object({
    status: z.enum(['ok']),
    projects: z.number().int().min(0).openapi({ description: 'Projects the service holds.' }),
    uptimeSeconds: z.number().int().min(0),
  })
  .openapi('Health');
