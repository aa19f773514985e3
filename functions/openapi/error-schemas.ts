import { MAX_LISTED_ERRORS, type BatchFailure, type FieldProblem } from '../http/api-error.ts';
import { ERROR_CODES, type ErrorCode } from '../http/error-codes.ts';
import { OAUTH_ERRORS } from '../keys/token-handler.ts';
import { z } from './zod.ts';

const CODES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** One line per code, so the Error schema itself is the reference table of codes. */
const CODE_TABLE = CODES.map((code) => `- \`${code}\` (${ERROR_CODES[code].status}): ${ERROR_CODES[code].meaning}`).join('\n');

export const fieldProblemSchema = z
  .object({
    field: z.string().openapi({ description: 'The offending field, as a path such as `email` or `operations[2].op`.' }),
    problem: z.string().openapi({ description: 'What is wrong with it, for people.' }),
  })
  .openapi('FieldProblem', { description: 'One problem with one field of a request body (`validation_failed`).' }) satisfies z.ZodType<FieldProblem>;

export const batchFailureSchema = z
  .object({
    index: z.number().int().min(0).openapi({ description: 'Position of the failed operation in the request.' }),
    op: z.string(),
    id: z.string(),
    code: z.enum(CODES),
    message: z.string(),
  })
  .openapi('BatchFailure', { description: 'One failed operation of a batch (`batch_failed`).' }) satisfies z.ZodType<BatchFailure>;

/** The Error shape of SPEC.md section 2, plus `errors` for the two codes that list problems. */
const errorShape = {
  code: z.enum(CODES).openapi({ description: 'Machine-readable, stable error code; see the table in this schema.' }),
  message: z.string().openapi({ description: 'What went wrong, for people.' }),
  hint: z.string().optional().openapi({ description: 'How to fix or retry the request.' }),
  requestId: z.string().optional().openapi({ description: 'The X-Request-Id of this request; always sent. Quote it when reporting a problem.' }),
  errors: z
    .array(z.union([fieldProblemSchema, batchFailureSchema]))
    .optional()
    .openapi({
      description: `Every problem at once, up to ${MAX_LISTED_ERRORS}: FieldProblem items for \`validation_failed\`, BatchFailure items for \`batch_failed\`.`,
    }),
  moreErrors: z
    .number()
    .int()
    .min(1)
    .optional()
    .openapi({ description: `How many further problems were found beyond the ${MAX_LISTED_ERRORS} listed in \`errors\`; absent when all are listed.` }),
};

export const errorSchema = z.object(errorShape).openapi('Error', { description: `Every error of the API has this shape. Codes:\n\n${CODE_TABLE}` });

/** RFC 9457 section 3.1 members, followed by the Error fields so that either kind of client finds `code`. */
export const problemSchema = z
  .object({
    type: z.string().openapi({ description: 'A URI reference naming the problem type; `about:blank` here (RFC 9457 section 4.2.1).' }),
    title: z.string().openapi({ description: 'The HTTP status phrase.' }),
    status: z.number().int().min(100).max(599),
    detail: z.string().openapi({ description: 'This occurrence, for people (the same text as `message`).' }),
    instance: z.string().openapi({ description: 'The request path.' }),
    ...errorShape,
  })
  .openapi('Problem', { description: 'An RFC 9457 problem document (`application/problem+json`) carrying the Error fields as extension members.' });

export const oauthErrorSchema = z
  .object({
    error: z.enum(OAUTH_ERRORS),
    error_description: z.string().openapi({ description: 'What went wrong, for people.' }),
  })
  .openapi('OAuthError', { description: 'An error of the token endpoint, in the shape of RFC 6749 section 5.2.' });
