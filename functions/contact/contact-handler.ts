import { jsonTextResponse } from '../http/json.ts';
import { parseJsonBody, requireJsonContentType } from '../http/json-body.ts';
import { strictQuery } from '../http/query.ts';
import type { RouteHandler } from '../http/router.ts';
import { headerValue } from '../http/types.ts';
import type { ContactService } from './contact-service.ts';
import { parseIdempotencyKey } from './idempotency-key.ts';
import { CONTACT_LIMITS } from './schema.ts';

/** POST /api/v1/contact (createContact): the JSON face of the contact service. */
export function contactHandler(service: ContactService): RouteHandler {
  return async (request, _params, context) => {
    strictQuery(request.query, []);
    const key = parseIdempotencyKey(headerValue(request, 'idempotency-key'));
    requireJsonContentType(request);
    const outcome = await service.submit({
      key,
      context,
      payload: async () => parseJsonBody(await request.readBody(CONTACT_LIMITS.bodyMaxBytes)),
    });
    return jsonTextResponse(
      outcome.status,
      outcome.body,
      outcome.replayed ? { ...outcome.headers, 'idempotent-replayed': 'true' } : outcome.headers,
    );
  };
}
