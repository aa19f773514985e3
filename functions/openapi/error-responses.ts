import { STATUS_CODES } from 'node:http';
import type { ResponseConfig, ZodContentObject } from '@asteasolutions/zod-to-openapi';
import { ERROR_CODES, type ErrorCode } from '../http/error-codes.ts';
import { COMMON_ERRORS } from '../operations.ts';
import { errorSchema, problemSchema } from './error-schemas.ts';
import { EVERY_RESPONSE, headerRefs, RATE_LIMIT, RATE_LIMIT_ON_ERRORS, type ResponseHeaderName } from './headers.ts';
import { unionOf, type z } from './zod.ts';

/**
 * Codes whose handler renders an RFC 9457 problem document (ApiError `problem: true`, see
 * projects/get-project.ts): SPEC.md section 7 asks it of the getProject 404 only.
 */
const PROBLEM_CODES: readonly ErrorCode[] = ['project_not_found'];

/** One documented way to fail: its status, media type and body, and a line for the description. */
export interface ErrorVariant {
  status: number;
  mediaType: string;
  schema: z.ZodTypeAny;
  line: string;
}

/** The variants of an operation's error codes, the ones every operation shares included. */
export function codeVariants(codes: readonly ErrorCode[]): ErrorVariant[] {
  return [...new Set([...COMMON_ERRORS, ...codes])].map((code) => {
    const problem = PROBLEM_CODES.includes(code);
    return {
      status: ERROR_CODES[code].status,
      mediaType: problem ? 'application/problem+json' : 'application/json',
      schema: problem ? problemSchema : errorSchema,
      line: `\`${code}\`: ${ERROR_CODES[code].meaning}`,
    };
  });
}

/** Headers an error of this status carries besides the ones every response has. */
function statusHeaders(status: number): ResponseHeaderName[] {
  if (status === 429) return ['Retry-After', ...RATE_LIMIT];
  if (status === 409 || status === 503) return ['Retry-After'];
  if (status === 401) return ['WWW-Authenticate'];
  return [];
}

/**
 * One response per status, its description naming every code that leads to it. When one
 * status has several body shapes in one media type (the token endpoint's 400 is either an
 * OAuth error or the Error shape), the schema is their anyOf.
 */
export function errorResponses(
  variants: readonly ErrorVariant[],
  extraHeaders: readonly ResponseHeaderName[] = [],
  charged = false,
): Record<string, ResponseConfig> {
  const byStatus = new Map<number, ErrorVariant[]>();
  for (const variant of variants) byStatus.set(variant.status, [...(byStatus.get(variant.status) ?? []), variant]);

  const responses: Record<string, ResponseConfig> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const content: ZodContentObject = {};
    for (const mediaType of new Set(group.map((variant) => variant.mediaType))) {
      const schemas = new Set(group.filter((variant) => variant.mediaType === mediaType).map((variant) => variant.schema));
      content[mediaType] = { schema: unionOf([...schemas]) };
    }
    responses[String(status)] = {
      description: `${STATUS_CODES[status] ?? 'Error'}:\n\n${group.map((variant) => `- ${variant.line}`).join('\n')}`,
      headers: {
        ...headerRefs([...EVERY_RESPONSE, ...statusHeaders(status), ...extraHeaders]),
        ...(charged && status !== 429 ? RATE_LIMIT_ON_ERRORS : {}),
      },
      content,
    };
  }
  return responses;
}
