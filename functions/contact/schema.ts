import { z } from 'zod';
import type { FieldProblem } from '../http/api-error.ts';

export const CONTACT_LIMITS = {
  nameMax: 200,
  emailMax: 254,
  messageMin: 10,
  messageMax: 5000,
  bodyMaxBytes: 16 * 1024,
} as const;

/** The contact submission (SPEC.md section 2); unknown fields are refused. */
export const contactSchema = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(CONTACT_LIMITS.nameMax, `must be at most ${CONTACT_LIMITS.nameMax} characters`),
    email: z
      .string()
      .trim()
      .max(CONTACT_LIMITS.emailMax, `must be at most ${CONTACT_LIMITS.emailMax} characters`)
      .email('must be a valid email address'),
    message: z
      .string()
      .trim()
      .min(CONTACT_LIMITS.messageMin, `must be at least ${CONTACT_LIMITS.messageMin} characters`)
      .max(CONTACT_LIMITS.messageMax, `must be at most ${CONTACT_LIMITS.messageMax} characters`),
  })
  .strict();

export type ContactSubmission = z.infer<typeof contactSchema>;

/** Every problem in a body at once, one entry per field (and per unknown field). */
export function contactProblems(error: z.ZodError): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push({ field: key.slice(0, 64), problem: 'is not a field of this operation' });
    } else if (issue.path.length === 0) {
      problems.push({ field: 'body', problem: 'must be a JSON object with name, email and message' });
    } else {
      let problem = issue.message;
      if (issue.code === 'invalid_type') problem = issue.received === 'undefined' ? 'is required' : 'must be a string';
      problems.push({ field: String(issue.path[0]), problem });
    }
  }
  return problems;
}
