import { ipAddress, waitUntil } from '@vercel/functions';
import build from 'portfolio:build-data';
import { createFetchHandler } from '../fetch/create-fetch-handler.ts';
import { originalRequest } from '../static/function-routes.ts';

/**
 * The service on Vercel Functions: the Node.js runtime's Web-standard `fetch` export, with
 * `waitUntil` from @vercel/functions (Vercel docs, "@vercel/functions API Reference (Node.js)"),
 * which keeps the instance alive after the answer for a request's due deliveries and jobs; the
 * cron (vercel-cron.ts) catches up with the rest. vercel.json rewrites the dynamic paths here
 * (function-routes.ts). The client address is Vercel's own header (ipAddress reads x-real-ip).
 */
const service = createFetchHandler(process.env, build);

export default {
  fetch: (request: Request): Promise<Response> =>
    service.fetch(originalRequest(request), { waitUntil, clientIp: ipAddress(request) }),
};
