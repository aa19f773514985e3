import { createApi, type Api } from '../../app/app.ts';
import type { PassReport } from '../../app/background-work.ts';
import { serviceHandle, type Handle } from '../../app/handle.ts';
import { loadConfig, type Config, type Env } from '../../config/env.ts';
import type { ApiResponse } from '../../http/types.ts';
import { flushLog, logError, logWarning } from '../../log/log.ts';
import type { ConnectionSlots } from '../../state/storage.ts';
import type { BuildData } from './build-data.ts';
import { builtEnvironment } from './built-environment.ts';
import { misbuiltFunction } from './misbuilt-function.ts';
import { fetchHandlerOver, type FetchHandler } from './fetch-handler.ts';
import { assertSharedEngines } from './shared-engines.ts';

/** The service as a function: the fetch handler, the scheduled pass, and the end of the instance. */
export interface ServiceFunction {
  /** The configuration the instance runs on: its environment, with the build's values where it sets none. */
  config: Config;
  /** The Web-standard handler a host's entry exports (Netlify, Vercel, Cloudflare all call this shape). */
  fetch: FetchHandler;
  /**
   * One bounded pass of the background work (functions/app/background-work.ts): the purge, due
   * deliveries, the job reaper and a slot-full of jobs. A host's scheduled function calls it,
   * every minute, say.
   */
  runScheduled(): Promise<PassReport>;
  /**
   * Makes the service now rather than on the first request, for a host that counts the CPU of a
   * request but not of its start (a Worker's module evaluation). It connects to nothing; a
   * failure is met again, and answered, by the first request.
   */
  prepare(): void;
  /** Closes the instance's connections (PostgreSQL, Redis), for hosts and tests that end an instance themselves. */
  close(): Promise<void>;
}

/** What a host adds to the service beyond its environment and build. */
export interface FunctionHost {
  /** Where each request's connections live, on a host that forbids sharing them between requests (workerd). */
  slots?: ConnectionSlots;
}

/**
 * On a host whose connections are per request (workerd), Redis would cost a connection for every
 * request it counts, more than the count itself, so REDIS_URL is left unused there: PostgreSQL
 * counts the contact and key quotas, each isolate the reads (functions/limits/quotas.ts).
 */
function withoutRedisPerRequest(config: Config, host: FunctionHost): Config {
  if (host.slots === undefined || config.redisUrl === null) return config;
  logWarning('REDIS_URL is not used on this host (its connections are per request): quotas are counted in PostgreSQL');
  return { ...config, redisUrl: null };
}

/** How long a client is told to wait when the service could not start (its storage or Redis). */
const START_RETRY_AFTER_SECONDS = 5;

/**
 * Builds the service for a function host from its environment and the build it was bundled
 * with, once per instance: module scope on every host. A baked variable the environment leaves
 * unset (SITE_URL, the quotas) takes the build's value (built-environment.ts). The configuration
 * is checked here, at creation: a bad variable or an embedded engine (EmbeddedEngineRefused)
 * throws before any request is answered; an environment that sets a baked variable to another
 * value than the build's makes a function that answers every request 503 `build_mismatch`, saying
 * what to rebuild with (misbuilt-function.ts), since the host would turn a throw at load into a
 * bare 500 and a log line about `npm start`, which a function does not have. Nothing connects until a
 * request needs the database, and the instance's one PostgreSQL connection is released once no
 * request is in flight and their `waitUntil` work is done, since the host may freeze the
 * instance from then on (a frozen instance cannot close an idle connection itself).
 *
 * ```ts
 * import build from './build-data.json';
 * const service = createFetchHandler(process.env, build);
 * export default service.fetch;
 * ```
 */
export function createFetchHandler(hostEnv: Env, build: BuildData, host: FunctionHost = {}): ServiceFunction {
  const { env, mismatches } = builtEnvironment(build.manifest, hostEnv);
  const config = withoutRedisPerRequest(loadConfig(env), host);
  assertSharedEngines(config);
  if (mismatches.length > 0 && !config.allowBuildMismatch) {
    const { fetch, refusal } = misbuiltFunction(config, mismatches);
    return {
      config,
      fetch,
      prepare: () => undefined,
      runScheduled: () => Promise.reject(new Error(refusal)),
      close: () => Promise.resolve(),
    };
  }

  let opening: Promise<{ api: Api; handle: Handle }> | undefined;
  /** The service once open: what a request left due is taken from it right after the answer. */
  let opened: Api | undefined;
  const open = () =>
    (opening ??= openService(config, build, host).then(
      (service) => {
        opened = service.api;
        return service;
      },
      (error: unknown) => {
        // The next request tries again (Redis or PostgreSQL may be starting).
        opening = undefined;
        throw error;
      },
    ));

  const answer = fetchHandlerOver({
    config,
    handle: async (request) => {
      let service: { handle: Handle };
      try {
        service = await open();
      } catch (error) {
        logError(request.requestId, error, { event: 'service start failed' });
        return startFailedAnswer(request.requestId);
      }
      return service.handle(request);
    },
    takeDueWork: () => opened?.services.background?.takeDue(),
  });

  let inFlight = 0;
  /** Once the last request in flight and its `waitUntil` work are done: the connections go. */
  const releaseAfter = async (work: readonly Promise<unknown>[]) => {
    await Promise.allSettled(work);
    if (--inFlight === 0) await opened?.services.storage.release().catch(() => undefined);
  };
  const fetch: FetchHandler = async (request, context) => {
    inFlight++;
    const work: Promise<unknown>[] = [];
    const waitUntil = context?.waitUntil?.bind(context);
    try {
      return await answer(request, {
        ...context,
        ...(waitUntil === undefined ? {} : { waitUntil: (promise: Promise<unknown>) => void work.push(promise) }),
      });
    } finally {
      const released = releaseAfter(work);
      // The host keeps the instance alive for the work and the release; without waitUntil, they run as they may.
      for (const promise of [...work, released]) waitUntil?.(promise);
    }
  };

  return {
    config,
    fetch,
    prepare: () => void open().catch(() => undefined),
    runScheduled: async () => {
      // Counted as a request in flight: its connection goes with the last one, not under a request.
      inFlight++;
      try {
        const { api } = await open();
        return await (api.services.background as NonNullable<typeof api.services.background>).runPass();
      } finally {
        await releaseAfter([]);
        flushLog();
      }
    },
    close: async () => {
      const current = opening;
      opening = opened = undefined;
      if (current !== undefined) await (await current.catch(() => undefined))?.api.services.close();
    },
  };
}

/**
 * The answer while the service cannot start (Redis or the storage not reachable): a 503 the
 * client may retry, in the error shape, never a 500; the log has the cause.
 */
function startFailedAnswer(requestId: string): ApiResponse {
  return {
    status: 503,
    headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(START_RETRY_AFTER_SECONDS) },
    body: JSON.stringify({
      code: 'storage_unavailable',
      message: 'The service cannot start right now; nothing was stored.',
      hint: `Retry after ${START_RETRY_AFTER_SECONDS} seconds.`,
      requestId,
    }),
  };
}

async function openService(
  config: Config,
  build: BuildData,
  host: FunctionHost,
): Promise<{ api: Api; handle: Handle }> {
  const api = await createApi(config, build.projects, build.searchIndex, 'function', host.slots);
  await api.services.quotas.ready();
  return {
    api,
    handle: serviceHandle(
      api,
      build.docs,
      (path) => build.pageTemplates[path],
      (name) => build.appViews[name],
    ),
  };
}
