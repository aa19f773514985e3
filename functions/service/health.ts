import { jsonResponse } from '../http/json.ts';
import { strictQuery } from '../http/query.ts';
import type { RouteHandler } from '../http/router.ts';

/** The storage's liveness check: resolves when it answers, throws StorageUnavailable otherwise. */
type PingStorage = () => Promise<void>;

/** GET /api/health: ok when the storage answers; a storage failure is a 503 in the Error shape. */
export function healthHandler(pingStorage: PingStorage, projects: number): RouteHandler {
  const started = Date.now();
  return async (request) => {
    strictQuery(request.query, []);
    await pingStorage();
    return jsonResponse(200, { status: 'ok', projects, uptimeSeconds: Math.floor((Date.now() - started) / 1000) });
  };
}
