import { clientKeyOf } from '../http/client-ip.ts';
import { jsonTextResponse } from '../http/json.ts';
import { parseJsonBody, requireJsonContentType } from '../http/json-body.ts';
import { strictQuery } from '../http/query.ts';
import type { Tier } from '../http/request-context.ts';
import type { RouteHandler } from '../http/router.ts';
import { headerValue } from '../http/types.ts';
import type { QuotaLimiter } from '../limits/rate-limiter.ts';
import type { ContactService } from './contact-service.ts';
import { parseIdempotencyKey } from './idempotency-key.ts';
import { CONTACT_LIMITS } from './schema.ts';

/** POST /api/v1/contact (createContact): the JSON face of the contact service; `messages` is the message quota of a tier. */
export function contactHandler(service: ContactService, messages: (tier: Tier) => QuotaLimiter): RouteHandler {
  return async (request, _params, context) => {
    strictQuery(request.query, []);
    const key = parseIdempotencyKey(headerValue(request, 'idempotency-key'));
    requireJsonContentType(request);
    const outcome = await service.submit({
      key,
      sandbox: context.sandbox,
      limiter: messages(context.tier),
      quotaKey: context.quotaKey,
      clientKey: clientKeyOf(request.clientIp),
      keyId: context.keyId,
      payload: async () => parseJsonBody(await request.readBody(CONTACT_LIMITS.bodyMaxBytes)),
    });
    return jsonTextResponse(
      outcome.status,
      outcome.body,
      outcome.replayed ? { ...outcome.headers, 'idempotent-replayed': 'true' } : outcome.headers,
    );
  };
}
