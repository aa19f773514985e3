import { parseJsonBody, requireJsonContentType } from '../http/json-body.ts';
import { strictQuery } from '../http/query.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { QuotaBook } from '../limits/quotas.ts';
import { headerValue, type ApiRequest, type ApiResponse } from '../http/types.ts';
import type { ContactService } from './contact-service.ts';
import { parseIdempotencyKey } from './idempotency-key.ts';
import { CONTACT_LIMITS } from './schema.ts';

/** POST /api/v1/contact (createContact): the JSON face of the contact service. */
export function contactHandler(service: ContactService, quotas: QuotaBook) {
  return async (request: ApiRequest, context: RequestContext): Promise<ApiResponse> => {
    strictQuery(request.query, []);
    const key = parseIdempotencyKey(headerValue(request, 'idempotency-key'));
    requireJsonContentType(request);
    const outcome = await service.submit({
      key,
      sandbox: context.sandbox,
      limiter: quotas.limiter(context.tier, 'contact'),
      quotaKey: context.quotaKey,
      payload: async () => parseJsonBody(await request.readBody(CONTACT_LIMITS.bodyMaxBytes)),
    });
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...outcome.headers };
    if (outcome.replayed) headers['idempotent-replayed'] = 'true';
    return { status: outcome.status, headers, body: outcome.body };
  };
}
