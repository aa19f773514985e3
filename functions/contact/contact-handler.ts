import { ApiError } from '../http/api-error.ts';
import { parseJsonBody, requireJsonContentType } from '../http/json-body.ts';
import { strictQuery } from '../http/query.ts';
import { isSandbox } from '../http/sandbox.ts';
import { headerValue, type ApiRequest, type ApiResponse } from '../http/types.ts';
import type { ContactService } from './contact-service.ts';
import { parseIdempotencyKey } from './idempotency-key.ts';
import { CONTACT_LIMITS } from './schema.ts';

/** POST /api/v1/contact (createContact): the JSON face of the contact service. */
export function contactHandler(service: ContactService) {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const sandbox = isSandbox(request, strictQuery(request.query, ['sandbox']).get('sandbox'));
    try {
      const key = parseIdempotencyKey(headerValue(request, 'idempotency-key'));
      requireJsonContentType(request);
      const outcome = await service.submit({
        key,
        sandbox,
        clientIp: request.clientIp,
        payload: async () => parseJsonBody(await request.readBody(CONTACT_LIMITS.bodyMaxBytes)),
      });
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...outcome.headers };
      if (outcome.replayed) headers['idempotent-replayed'] = 'true';
      if (sandbox) headers['x-sandbox'] = 'true';
      return { status: outcome.status, headers, body: outcome.body };
    } catch (error) {
      if (error instanceof ApiError && sandbox) error.headers['x-sandbox'] = 'true';
      throw error;
    }
  };
}
