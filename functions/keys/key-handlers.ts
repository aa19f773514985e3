import { z } from 'zod';
import { ApiError } from '../http/api-error.ts';
import { clientKeyOf } from '../http/client-ip.ts';
import { fieldProblems } from '../http/field-problems.ts';
import { readOptionalJson } from '../http/json-body.ts';
import { strictQuery } from '../http/query.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import { charge } from '../limits/charge.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { KeyService } from './key-service.ts';

/** The optional body of POST /api/v1/keys. */
export const createKeySchema = z.object({ label: z.string().trim().min(1).max(100).optional() }).strict();

/**
 * POST /api/v1/keys: a new test key, shown once. Creation is counted per client IP whatever
 * key the caller holds, so keys cannot be used to mint more keys faster.
 */
export function createKeyHandler(keys: KeyService, limiter: RateLimiter) {
  return async (request: ApiRequest, context: RequestContext): Promise<ApiResponse> => {
    strictQuery(request.query, []);
    const body = (await readOptionalJson(request, 4096)) ?? {};
    const parsed = createKeySchema.safeParse(body);
    if (!parsed.success) {
      const errors = fieldProblems(parsed.error, { unknownField: 'is not a field of this operation', notAnObject: 'must be a JSON object' });
      throw new ApiError('validation_failed', 'The body is not a valid key request.', { hint: 'Send {} or {"label": "my script"}.', errors });
    }
    const headers = charge(limiter, clientKeyOf(request.clientIp), 1, 'keys');
    const issued = keys.create(parsed.data.label ?? null, context.sandbox);
    return {
      status: 201,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
      body: JSON.stringify(issued),
    };
  };
}
