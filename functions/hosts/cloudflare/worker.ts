import build from 'portfolio:build-data';
import { createFetchHandler, type ServiceFunction } from '../fetch/create-fetch-handler.ts';
import { logEvent } from '../../log/log.ts';

/** The part of a Worker's ExecutionContext this entry uses (Cloudflare docs, "Context (ctx)"). */
interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The Worker's bindings this entry reads: a Hyperdrive binding named HYPERDRIVE, when wrangler.toml
 * declares one (Cloudflare docs, "Hyperdrive" > "Connect to PostgreSQL": `env.HYPERDRIVE.connectionString`).
 */
interface WorkerEnv {
  HYPERDRIVE?: { connectionString: string };
}

/** The service's variables: the Worker's vars and secrets, with DATABASE_URL from Hyperdrive when bound. */
function variables(env: WorkerEnv): Record<string, string | undefined> {
  return env.HYPERDRIVE === undefined ? process.env : { ...process.env, DATABASE_URL: env.HYPERDRIVE.connectionString };
}

/**
 * The service as a Cloudflare Worker. workerd refuses I/O on a connection opened by another
 * request ("Cannot perform I/O on behalf of a different request": Cloudflare docs, "Workers
 * errors"), so the PostgreSQL and Redis connections cannot outlive a request as they do on
 * Netlify and Vercel: each request gets its own service, closed once its answer and its
 * `waitUntil` work are done. Hyperdrive keeps the PostgreSQL pool on Cloudflare's side, so
 * with it the per-request connection is a short local hop rather than a handshake with the database. pg reaches PostgreSQL over `cloudflare:sockets`,
 * ioredis Redis over node:net, both under the nodejs_compat flag.
 */
export default {
  fetch: (request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> => {
    const pending: Promise<unknown>[] = [];
    const service = createFetchHandler(variables(env), build);
    const answer = service.fetch(request, {
      waitUntil: (promise) => pending.push(promise),
      clientIp: request.headers.get('cf-connecting-ip') ?? undefined,
    });
    ctx.waitUntil(closeAfter(service, answer, pending));
    return answer;
  },
  /** The Cron Trigger (wrangler.toml `[triggers] crons`): one pass of the background work. */
  scheduled: (_controller: unknown, env: WorkerEnv, ctx: ExecutionContext): void => {
    const service = createFetchHandler(variables(env), build);
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
