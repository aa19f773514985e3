import { ApiError } from '../http/api-error.ts';
import { fieldProblems, PLAIN_WORDS } from '../config/field-problems.ts';
import { jsonResponse } from '../http/json.ts';
import { readOptionalJson } from '../http/json-body.ts';
import { strictQuery } from '../http/query.ts';
import type { RouteHandler } from '../http/router.ts';
import { OPERATIONS } from '../operations/operations.ts';
import type { KeyService } from './key-service.ts';
import { createKeySchema } from './schema.ts';

/**
 * POST /api/v1/keys: a new test key, shown once. Creation is counted per client IP whatever
 * key the caller holds, so keys cannot be used to mint more keys faster (limits/quotas.ts).
 */
export function createKeyHandler(keys: KeyService): RouteHandler {
  return async (request, _params, context) => {
    strictQuery(request.query, []);
    const body = (await readOptionalJson(request, 4096)) ?? {};
    const parsed = createKeySchema.safeParse(body, PLAIN_WORDS);
    if (!parsed.success) {
      const errors = fieldProblems(parsed.error, {
        unknownField: 'is not a field of this operation',
        notAnObject: 'must be a JSON object',
      });
      throw new ApiError('validation_failed', 'The body is not a valid key request.', {
        hint: 'Send {} or {"label": "my script"}.',
        errors,
      });
    }
    const headers = await context.charge(OPERATIONS.createKey.handlerQuota, 1, 'keys');
    return jsonResponse(201, await keys.create(parsed.data.label ?? null, context.sandbox), headers);
  };
}
