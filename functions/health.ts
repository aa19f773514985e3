import { jsonResponse } from './http/json.ts';
import { strictQuery } from './http/query.ts';
import type { RouteHandler } from './http/router.ts';
import type { Storage } from './state/storage.ts';

/** GET /api/health: ok when the storage answers; a storage failure is a 503 in the Error shape. */
export function healthHandler(storage: Storage, projects: number): RouteHandler {
  const started = Date.now();
  return async (request) => {
    strictQuery(request.query, []);
    await storage.ping();
    return jsonResponse(200, { status: 'ok', projects, uptimeSeconds: Math.floor((Date.now() - started) / 1000) });
  };
}
