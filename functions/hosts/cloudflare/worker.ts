import build from 'portfolio:build-data';
import { createFetchHandler, type ServiceFunction } from '../fetch/create-fetch-handler.ts';
import { logEvent } from '../../log/log.ts';
import { RequestSlots } from './request-slots.ts';

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

const slots = new RequestSlots();
/**
 * The service, built by the isolate's first request (the bindings arrive with it) and kept for
 * every later one: the catalog, the search index, the routes and the quotas' own counts are made
 * once per isolate, not per request. Only connections are per request (RequestSlots), since
 * workerd refuses to share them between requests; Hyperdrive keeps the PostgreSQL pool on
 * Cloudflare's side, so with it a request's connection is a short local hop rather than a
 * handshake with the database. pg reaches PostgreSQL over `cloudflare:sockets`, ioredis Redis
 * over node:net, both under the nodejs_compat flag.
 */
let service: ServiceFunction | undefined;
const serviceFor = (env: WorkerEnv) => (service ??= createFetchHandler(variables(env), build, { slots }));

export default {
  fetch: (request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> => {
    const pending: Promise<unknown>[] = [];
    const { result, close } = slots.run(() =>
      serviceFor(env).fetch(request, {
        waitUntil: (promise) => pending.push(promise),
        clientIp: request.headers.get('cf-connecting-ip') ?? undefined,
      }),
    );
    ctx.waitUntil(closeAfter(close, result, pending));
    return result;
  },
  /** The Cron Trigger (wrangler.toml `[triggers] crons`): one pass of the background work. */
  scheduled: (_controller: unknown, env: WorkerEnv, ctx: ExecutionContext): void => {
    const { result, close } = slots.run(() =>
      serviceFor(env)
        .runScheduled()
        .then((report) => logEvent('scheduled pass', { ...report })),
    );
    ctx.waitUntil(closeAfter(close, result, []));
  },
};

/** Closes a request's connections once its answer and every promise it handed to waitUntil have settled. */
async function closeAfter(
  close: () => Promise<void>,
  done: Promise<unknown>,
  pending: Promise<unknown>[],
): Promise<void> {
  await done.catch(() => undefined);
  for (let settled = 0; settled < pending.length; settled = pending.length)
    await Promise.allSettled(pending.slice(settled));
  await close();
}
