import build from 'portfolio:build-data';
import { createFetchHandler } from '../fetch/create-fetch-handler.ts';

/** The part of Netlify's Context this entry uses (Netlify docs, "Functions API reference" > "Netlify-specific Context object"). */
interface NetlifyContext {
  ip: string;
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The service on Netlify Functions: one instance of the service per function instance, created at
 * module load (its connections open on the first request). Netlify keeps the instance alive for
 * `context.waitUntil` work, so a request's due deliveries and jobs start right after the answer;
 * the scheduled function (netlify-scheduled.ts) catches up with anything left.
 */
const service = createFetchHandler(process.env, build);

export default (request: Request, context: NetlifyContext): Promise<Response> =>
  service.fetch(request, { waitUntil: (promise) => context.waitUntil(promise), clientIp: context.ip });
