import { strictQuery } from './http/query.ts';
import type { ApiRequest, ApiResponse } from './http/types.ts';
import type { Db } from './state/database.ts';
import { withStorage } from './state/storage-errors.ts';

const STARTED = Date.now();

/** GET /api/health: ok when the database answers; a storage failure is a 503 in the Error shape. */
export function healthHandler(db: Db, projects: number) {
  const ping = db.prepare('SELECT 1');
  return (request: ApiRequest): ApiResponse => {
    strictQuery(request.query, []);
    withStorage(() => ping.get());
    return {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      body: JSON.stringify({ status: 'ok', projects, uptimeSeconds: Math.floor((Date.now() - STARTED) / 1000) }),
    };
  };
}
