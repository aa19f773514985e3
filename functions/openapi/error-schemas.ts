import { z } from 'zod';
import { MAX_LISTED_ERRORS, type BatchFailure, type FieldProblem } from '../http/api-error.ts';
import { ERROR_CODES, type ErrorCode } from '../http/error-codes.ts';

// The Error shape (http/api-error.ts) as published. Only the description reads these schemas:
// the service builds its errors with ApiError. Named as components in components.ts.

const CODES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** One line per code, so the Error schema itself is the reference table of codes. */
const CODE_TABLE = CODES.map(
  (code) => `- \`${code}\` (${ERROR_CODES[code].status}): ${ERROR_CODES[code].meaning}`,
).join('\n');

export const fieldProblemSchema = z.object({
  field: z.string().describe('The offending field, as a path such as `email` or `operations[2].op`.'),
  problem: z.string().describe('What is wrong with it, for people.'),
}) satisfies z.ZodType<FieldProblem>;

export const batchFailureSchema = z.object({
  index: z.number().int().min(0).describe('Position of the failed operation in the request.'),
  op: z.string(),
  id: z.string(),
  code: z.enum(CODES),
  message: z.string(),
}) satisfies z.ZodType<BatchFailure>;

/** `{code, message, hint?, requestId}`, plus `errors` for the two codes that list problems. */
const errorShape = {
  code: z.enum(CODES).describe('Machine-readable, stable error code; see the table in this schema.'),
  message: z.string().describe('What went wrong, for people.'),
  hint: z.string().optional().describe('How to fix or retry the request.'),
  requestId: z
    .string()
    .optional()
    .describe('The X-Request-Id of this request; always sent. Quote it when reporting a problem.'),
  errors: z
    .array(z.union([fieldProblemSchema, batchFailureSchema]))
    .optional()
    .describe(
      `Every problem at once, up to ${MAX_LISTED_ERRORS}: FieldProblem items for \`validation_failed\`, BatchFailure items for \`batch_failed\`.`,
    ),
  moreErrors: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      `How many further problems were found beyond the ${MAX_LISTED_ERRORS} listed in \`errors\`; absent when all are listed.`,
    ),
};

export const errorSchema = z
  .object(errorShape)
  .describe(`Every error of the API has this shape. Codes:\n\n${CODE_TABLE}`);

/** RFC 9457 section 3.1 members, followed by the Error fields so that either kind of client finds `code`. */
export const problemSchema = z.object({
  type: z.string().describe('A URI reference naming the problem type; `about:blank` here (RFC 9457 section 4.2.1).'),
  title: z.string().describe('The HTTP status phrase.'),
  status: z.number().int().min(100).max(599),
  detail: z.string().describe('This occurrence, for people (the same text as `message`).'),
  instance: z.string().describe('The request path.'),
  ...errorShape,
});
