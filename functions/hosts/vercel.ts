import { ipAddress, waitUntil } from '@vercel/functions';
import build from 'portfolio:build-data';
import { createFetchHandler } from '../serverless/create-fetch-handler.ts';
import { originalRequest } from './function-routes.ts';

/**
 * The service on Vercel Functions (Node.js runtime, the Web-standard `fetch` export with `waitUntil`
 * imported from @vercel/functions: Vercel docs, "@vercel/functions API Reference (Node.js)"). vercel.json rewrites the dynamic paths here (function-routes.ts).
 * `waitUntil` from @vercel/functions keeps the instance alive after the answer for a request's
 * due deliveries and jobs; the cron (vercel-cron.ts) catches up with the rest. The client address
 * is Vercel's own header (ipAddress reads x-real-ip, which Vercel sets).
 */
const service = createFetchHandler(process.env, build);

export default {
  fetch: (request: Request): Promise<Response> =>
    service.fetch(originalRequest(request), { waitUntil, clientIp: ipAddress(request) }),
};
