import { env as startEnv } from 'cloudflare:workers';
import build from 'portfolio:build-data';
import { createFetchHandler, type ServiceFunction } from '../fetch/create-fetch-handler.ts';
import { logEvent } from '../../log/log.ts';
import { RequestSlots } from './request-slots.ts';

/** The part of a Worker's ExecutionContext this entry uses (Cloudflare docs, "Context (ctx)"). */
interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The Worker's bindings this entry reads: its vars and secrets (strings), and a Hyperdrive binding
 * named HYPERDRIVE when wrangler.toml declares one (Cloudflare docs, "Hyperdrive" > "Connect to
 * PostgreSQL": `env.HYPERDRIVE.connectionString`).
 */
interface WorkerEnv {
  HYPERDRIVE?: { connectionString: string };
  [name: string]: unknown;
}

/** The service's variables: the Worker's vars and secrets, with DATABASE_URL from Hyperdrive when bound. */
function variables(bindings: WorkerEnv): Record<string, string | undefined> {
  const strings = Object.entries(bindings).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  const hyperdrive = bindings.HYPERDRIVE === undefined ? {} : { DATABASE_URL: bindings.HYPERDRIVE.connectionString };
  return { ...process.env, ...Object.fromEntries(strings), ...hyperdrive };
}

const slots = new RequestSlots();
/**
 * The service, made while the isolate starts (`env` from cloudflare:workers is there before any
 * request), so that no request pays for it: the catalog, the routes, the quotas' own counts are
 * made once per isolate, and a Worker's first request costs what the others do. Only connections
 * are per request (RequestSlots), since workerd refuses to share them between requests;
 * Hyperdrive keeps the PostgreSQL pool on Cloudflare's side, so with it a request's connection
 * is a short local hop rather than a handshake with the database. pg reaches PostgreSQL over
 * `cloudflare:sockets` under the nodejs_compat flag. A configuration the service refuses throws
 * here, and again, as the answer's error, on each request.
 */
let service: ServiceFunction | undefined;
const serviceFor = (bindings: WorkerEnv) => (service ??= createFetchHandler(variables(bindings), build, { slots }));
try {
  serviceFor(startEnv as WorkerEnv).prepare();
} catch {
  // Thrown again by the first request, whose answer says it.
}

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
