import { jsonResponse } from '../http/json.ts';
import { strictQuery } from '../http/query.ts';
import type { RouteHandler } from '../http/router.ts';

/** GET /api/v1/sandbox/ping (sandboxPing): `{pong: true, sandbox}`, whether this request is in sandbox mode. */
export const sandboxPingHandler: RouteHandler = (request, _params, context) => {
  strictQuery(request.query, []);
  return jsonResponse(200, { pong: true, sandbox: context.sandbox });
};
