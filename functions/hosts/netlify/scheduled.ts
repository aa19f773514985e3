import build from 'portfolio:build-data';
import { createFetchHandler } from '../fetch/create-fetch-handler.ts';
import { logEvent } from '../../log/log.ts';

/**
 * Netlify's scheduled function (Netlify docs, "Scheduled Functions": a function whose config has a
 * `schedule`, run on Netlify's clock with a 30 s limit): one bounded pass of the background
 * work — the purge, due email and webhook deliveries, the job reaper and a slot-full of jobs.
 * Unlike Vercel's cron target (../vercel/cron-target.ts), it needs no secret: its config has a
 * `schedule` and no `path` (./bundle.ts), and Netlify runs such a function on its own clock on
 * published deploys (or by "Run now" in its UI), never for a request to a public URL, so no
 * stranger can start a pass.
 */
const service = createFetchHandler(process.env, build);

export default async (): Promise<Response> => {
  const report = await service.runScheduled();
  logEvent('scheduled pass', { ...report });
  return new Response(null, { status: 204 });
};
