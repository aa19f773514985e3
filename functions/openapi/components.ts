import { zodToOpenAPIRegistry, type ZodOpenAPIMetadata } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { batchRequestSchema, batchResponseSchema, batchResultSchema } from '../batch/schema.ts';
import { contactResultSchema, contactSchema } from '../contact/schema.ts';
import { jobCreatedSchema, jobRequestSchema, jobSchema } from '../jobs/schema.ts';
import { DEFAULT_TASK, TASK_NAMES, TASKS, type TaskName } from '../jobs/tasks.ts';
import {
  createKeySchema,
  issuedKeySchema,
  oauthErrorSchema,
  tokenRequestSchema,
  tokenResponseSchema,
} from '../keys/schema.ts';
import { paginationSchema, projectListSchema, projectSchema } from '../projects/schema.ts';
import { searchResponseSchema } from '../search/schema.ts';
import { apiIndexSchema, healthSchema, sandboxPingSchema } from '../service/schema.ts';
import { batchFailureSchema, errorSchema, fieldProblemSchema, problemSchema } from './error-schemas.ts';

type Metadata = Partial<ZodOpenAPIMetadata>;

/**
 * Publishes a schema as a named component (and adds metadata only the description needs) on
 * the very object the service validates with, so every schema that nests it refers to the
 * component by name instead of repeating it. zod-to-openapi's `.openapi()` would return a copy,
 * which the nesting schemas do not hold (and exists only on schemas made after zod was extended),
 * so the metadata goes straight into the registry `.openapi()` writes to. Harmless to
 * validation, and unseen by zod's own JSON Schema conversion (the MCP tools' schemas), which
 * reads only zod's global registry.
 */
function annotate(schema: z.ZodType, refId: string | undefined, metadata: Metadata = {}): void {
  const current = zodToOpenAPIRegistry.get(schema);
  const internal = refId === undefined ? current?._internal : { ...current?._internal, refId };
  zodToOpenAPIRegistry.add(schema, {
    ...current,
    ...metadata,
    ...(internal === undefined ? {} : { _internal: internal }),
  });
}

/** `digest` -> `DigestTaskInput`. */
function taskComponentName(task: TaskName, part: 'Input' | 'Result'): string {
  return `${task.charAt(0).toUpperCase()}${task.slice(1)}Task${part}`;
}

const TASK_LIST = TASK_NAMES.map(
  (name) =>
    `- \`${name}\`${name === DEFAULT_TASK ? ' (the default)' : ''}: ${TASKS[name].description} Input: ${taskComponentName(name, 'Input')}; result: ${taskComponentName(name, 'Result')}.`,
).join('\n');

/** The batch request depends on BATCH_MAX_OPERATIONS, so it is made per description. */
export function batchRequestComponent(maxOperations: number): z.ZodType {
  const schema = batchRequestSchema(maxOperations);
  annotate(schema, 'BatchRequest', {
    description: `1 to ${maxOperations} read operations, each naming the operationId it mirrors and the slug or job id it reads.`,
  });
  return schema;
}

/** Names every component of the description; idempotent, called before each generation. */
export function nameComponents(): void {
  annotate(projectSchema, 'Project', {
    description: 'A project of the portfolio. `repository`, `website` and `updated` are null when the owner gave none.',
  });
  annotate(paginationSchema, 'Pagination');
  annotate(projectListSchema, 'ProjectList', { description: 'One page of projects.' });
  annotate(contactSchema, 'ContactSubmission', {
    description:
      'A message for the owner. Surrounding white space is trimmed before the lengths are checked; unknown fields are refused.',
  });
  annotate(contactResultSchema, 'ContactResult');
  annotate(batchResultSchema, 'BatchResult');
  annotate(batchResponseSchema, 'BatchResponse', { description: 'One result per operation, in request order.' });
  annotate(sandboxPingSchema, 'SandboxPing');
  annotate(apiIndexSchema, 'ApiIndex', { description: 'Where everything about the API is, as absolute URLs.' });
  annotate(createKeySchema, 'KeyRequest', { description: 'Optional; a label helps you tell your keys apart.' });
  annotate(issuedKeySchema, 'IssuedKey');
  annotate(tokenRequestSchema, 'TokenRequest');
  annotate(tokenResponseSchema, 'TokenResponse', {
    description:
      'RFC 6749 section 5.1. Send the token as `Authorization: Bearer <token>`; it acts exactly like its key.',
  });
  annotate(oauthErrorSchema, 'OAuthError', {
    description: 'An error of the token endpoint, in the shape of RFC 6749 section 5.2.',
  });
  annotate(searchResponseSchema, 'SearchResults', {
    description:
      'Matches across projects, documentation, API operations and MCP tools; `url` is absolute and `snippet` plain text.',
  });
  annotate(healthSchema, 'Health');
  for (const name of TASK_NAMES) {
    annotate(TASKS[name].input, taskComponentName(name, 'Input'), { description: `Input of the \`${name}\` task.` });
    annotate(TASKS[name].result, taskComponentName(name, 'Result'), {
      description: `Result of the \`${name}\` task: ${TASKS[name].description}`,
    });
  }
  annotate(jobRequestSchema, 'JobRequest', {
    description: `The body is optional: no body runs the default task. Tasks:\n\n${TASK_LIST}`,
  });
  annotate(jobCreatedSchema, 'JobCreated');
  // A nullable union cannot be generated as valid OpenAPI 3.0 (the generator would add a
  // type-less `{nullable: true}` member), so the results are listed by reference beside
  // `type: object` and `nullable: true`.
  // Any member is allowed, as the alternatives say: zod 4 would write its catch-all as
  // `additionalProperties: {nullable: true}`, which OpenAPI 3.0 does not accept without a type.
  annotate(jobSchema.shape.result, undefined, {
    additionalProperties: true,
    anyOf: TASK_NAMES.map((name) => ({ $ref: `#/components/schemas/${taskComponentName(name, 'Result')}` })),
  });
  annotate(jobSchema, 'Job', { description: 'A job as getJobStatus returns it.' });
  annotate(fieldProblemSchema, 'FieldProblem', {
    description: 'One problem with one field of a request body (`validation_failed`).',
  });
  annotate(batchFailureSchema, 'BatchFailure', { description: 'One failed operation of a batch (`batch_failed`).' });
  annotate(errorSchema, 'Error');
  annotate(problemSchema, 'Problem', {
    description:
      'An RFC 9457 problem document (`application/problem+json`) carrying the Error fields as extension members.',
  });
}

/** The task results, which the Job schema names only by reference: document.ts lists them. */
export function taskResultSchemas(): z.ZodType[] {
  return TASK_NAMES.map((name) => TASKS[name].result);
}
