import { z } from 'zod';
import type { ProblemWords } from '../config/field-problems.ts';

export const CONTACT_LIMITS = {
  nameMax: 200,
  emailMax: 254,
  messageMin: 10,
  messageMax: 5000,
  bodyMaxBytes: 16 * 1024,
} as const;

/** The fields of a message, as every client sends them. */
const messageFields = {
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(CONTACT_LIMITS.nameMax, `must be at most ${CONTACT_LIMITS.nameMax} characters`),
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
};

/** A message without the contact page's own fields: what the MCP and WebMCP tools take. */
export const contactMessageSchema = z.object(messageFields).strict();

/**
 * What the site's contact page adds to its post, so that it is judged by the page's own spam rules
 * (functions/contact/spam-score.ts). No length limits: they would answer a bot with an error.
 */
const formSignalsSchema = z
  .object({
    token: z.string().describe('The fill-time token the page was issued with (its hidden form_token field).'),
    honeypot: z.string().describe('What the hidden field that people leave empty held.'),
  })
  .strict()
  .describe('Sent only by the contact page of this site; API clients leave it out.');

/** The contact submission: name, email and message, and `form` from the contact page; unknown fields are refused. */
export const contactSchema = z.object({ ...messageFields, form: formSignalsSchema.optional() }).strict();

/** How the contact body's problems are worded (functions/config/field-problems.ts). */
export const CONTACT_PROBLEM_WORDS: ProblemWords = {
  unknownField: 'is not a field of this operation',
  notAnObject: 'must be a JSON object with name, email and message',
};

/** The 200 answer of createContact. */
export const contactResultSchema = z.object({ success: z.boolean() });

/**
 * The Idempotency-Key of createContact: any UUID-shaped value (8-4-4-4-12 hex digits), whatever
 * its version bits, as 1.x accepted; zod 4's `uuid()` would refuse keys that are not RFC 9562.
 */
export const idempotencyKeyHeader = z
  .guid()
  .describe('A new UUID per message; retry with the same key to get the same answer.');
