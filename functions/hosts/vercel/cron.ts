import build from 'portfolio:build-data';
import { logEvent } from '../../log/log.ts';
import { createFetchHandler } from '../fetch/create-fetch-handler.ts';

/**
 * Vercel's cron target (Vercel docs, "Cron Jobs": a GET on the path, with `Authorization: Bearer
 * $CRON_SECRET` when the project sets CRON_SECRET, which is how a stranger's GET is told apart).
 */
const service = createFetchHandler(process.env, build);

export default {
  fetch: async (request: Request): Promise<Response> => {
    const secret = process.env.CRON_SECRET;
    if (secret !== undefined && request.headers.get('authorization') !== `Bearer ${secret}`)
      return new Response(null, { status: 401 });
    const report = await service.runScheduled();
    logEvent('scheduled pass', { ...report });
    return new Response(null, { status: 204 });
  },
};
