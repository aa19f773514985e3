import { ipAddress, waitUntil } from '@vercel/functions';
import build from 'portfolio:build-data';
import { createFetchHandler } from '../serverless/create-fetch-handler.ts';

/**
 * The service on Vercel Functions (Node.js runtime, the Web-standard `fetch` export: Vercel docs,
 * "Functions API Reference"). `waitUntil` from @vercel/functions keeps the instance alive after the
 * answer for a request's due deliveries and jobs; the cron (vercel-cron.ts) catches up with the rest.
 * The client address is Vercel's own header (ipAddress reads x-real-ip, which Vercel sets).
 */
const service = createFetchHandler(process.env, build);

export default {
  fetch: (request: Request): Promise<Response> => service.fetch(request, { waitUntil, clientIp: ipAddress(request) }),
};
