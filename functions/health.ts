import { jsonResponse } from './http/json.ts';
import { strictQuery } from './http/query.ts';
import type { RouteHandler } from './http/router.ts';
import type { Db } from './state/database.ts';
import { withStorage } from './state/storage-errors.ts';

/** GET /api/health: ok when the database answers; a storage failure is a 503 in the Error shape. */
export function healthHandler(db: Db, projects: number): RouteHandler {
  const started = Date.now();
  const ping = db.prepare('SELECT 1');
  return (request) => {
    strictQuery(request.query, []);
    withStorage(() => ping.get());
    return jsonResponse(200, { status: 'ok', projects, uptimeSeconds: Math.floor((Date.now() - started) / 1000) });
  };
}
