import { STATUS_CODES } from 'node:http';
import type { ResponseConfig, ZodContentObject } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { ERROR_CODES, type ErrorCode, type ErrorCodeSpec } from '../http/error-codes.ts';
import { COMMON_ERRORS } from '../operations/operations.ts';
import { unionOf } from '../http/union-of.ts';
import { errorSchema, problemSchema } from './error-schemas.ts';
import { EVERY_RESPONSE, headerRefs, RATE_LIMIT_ON_ERRORS, type ResponseHeaderName } from './headers.ts';

/** One documented way to fail: its status, media type, body and headers, and a line for the description. */
export interface ErrorVariant {
  status: number;
  mediaType: string;
  schema: z.ZodType;
  headers: readonly ResponseHeaderName[];
  line: string;
}

/** The variants of an operation's error codes, the ones every operation shares included. */
export function codeVariants(codes: readonly ErrorCode[]): ErrorVariant[] {
  return [...new Set([...COMMON_ERRORS, ...codes])].map((code) => {
    const spec: ErrorCodeSpec = ERROR_CODES[code];
    return {
      status: spec.status,
      mediaType: spec.problem ? 'application/problem+json' : 'application/json',
      schema: spec.problem ? problemSchema : errorSchema,
      headers: spec.headers ?? [],
      line: `\`${code}\`: ${spec.meaning}`,
    };
  });
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
      const schemas = new Set(
        group.filter((variant) => variant.mediaType === mediaType).map((variant) => variant.schema),
      );
      content[mediaType] = { schema: unionOf([...schemas]) };
    }
    responses[String(status)] = {
      description: `${STATUS_CODES[status] ?? 'Error'}:\n\n${group.map((variant) => `- ${variant.line}`).join('\n')}`,
      headers: {
        ...headerRefs([
          ...new Set([...EVERY_RESPONSE, ...group.flatMap((variant) => variant.headers), ...extraHeaders]),
        ]),
        ...(charged && status !== 429 ? RATE_LIMIT_ON_ERRORS : {}),
      },
      content,
    };
  }
  return responses;
}
