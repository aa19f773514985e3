import build from 'portfolio:build-data';
import { createFetchHandler, type ServiceFunction } from '../serverless/create-fetch-handler.ts';
import { logEvent } from '../log/log.ts';

/** The part of a Worker's ExecutionContext this entry uses (Cloudflare docs, "Context (ctx)"). */
interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The service as a Cloudflare Worker. workerd refuses I/O on a connection opened by another
 * request ("Cannot perform I/O on behalf of a different request": Cloudflare docs, "Workers
 * errors"), so the PostgreSQL and Redis connections cannot outlive a request as they do on
 * Netlify and Vercel: each request gets its own service, closed once its answer and its
 * `waitUntil` work are done. (Hyperdrive keeps the PostgreSQL pool on Cloudflare's side, so
 * the per-request connection is cheap there.) pg reaches PostgreSQL over `cloudflare:sockets`,
 * ioredis Redis over node:net, both under the nodejs_compat flag.
 */
export default {
  fetch: (request: Request, _env: unknown, ctx: ExecutionContext): Promise<Response> => {
    const pending: Promise<unknown>[] = [];
    const service = createFetchHandler(process.env, build);
    const answer = service.fetch(request, {
      waitUntil: (promise) => pending.push(promise),
      clientIp: request.headers.get('cf-connecting-ip') ?? undefined,
    });
    ctx.waitUntil(closeAfter(service, answer, pending));
    return answer;
  },
  /** The Cron Trigger (wrangler.toml `[triggers] crons`): one pass of the background work. */
  scheduled: (_controller: unknown, _env: unknown, ctx: ExecutionContext): void => {
    const service = createFetchHandler(process.env, build);
    const pass = service.runScheduled().then((report) => logEvent('scheduled pass', { ...report }));
    ctx.waitUntil(closeAfter(service, pass, []));
  },
};

/** Closes a request's service once its answer and every promise it handed to waitUntil have settled. */
async function closeAfter(
  service: ServiceFunction,
  done: Promise<unknown>,
  pending: Promise<unknown>[],
): Promise<void> {
  await done.catch(() => undefined);
  for (let settled = 0; settled < pending.length; settled = pending.length)
    await Promise.allSettled(pending.slice(settled));
  await service.close();
}
