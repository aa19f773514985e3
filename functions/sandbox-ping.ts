import { strictQuery } from './http/query.ts';
import type { RequestContext } from './http/request-context.ts';
import type { ApiRequest, ApiResponse } from './http/types.ts';

/** GET /api/v1/sandbox/ping (sandboxPing): `{pong: true, sandbox}`, whether this request is in sandbox mode. */
export function sandboxPingHandler(request: ApiRequest, context: RequestContext): ApiResponse {
  strictQuery(request.query, []);
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify({ pong: true, sandbox: context.sandbox }),
  };
}
