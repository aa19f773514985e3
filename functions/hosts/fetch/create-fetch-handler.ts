import { createApi, type Api } from '../../app/app.ts';
import type { PassReport } from '../../app/background-work.ts';
import { serviceHandle, type Handle } from '../../app/handle.ts';
import { lastResortAnswer } from '../../app/service-exchange.ts';
import { loadConfig, type Config, type Env } from '../../config/env.ts';
import { flushLog, logError } from '../../log/log.ts';
import { assertBuildMatches } from '../static/build-manifest.ts';
import type { BuildData } from './build-data.ts';
import { fetchHandlerOver, type FetchHandler } from './fetch-handler.ts';
import { assertSharedEngines } from './shared-engines.ts';

/** The service as a function: the fetch handler, the scheduled pass, and the end of the instance. */
export interface ServiceFunction {
  /** The Web-standard handler a host's entry exports (Netlify, Vercel, Cloudflare all call this shape). */
  fetch: FetchHandler;
  /**
   * One bounded pass of the background work (functions/app/background-work.ts): the purge, due
   * deliveries, the job reaper and a slot-full of jobs. A host's scheduled function calls it,
   * every minute, say.
   */
  runScheduled(): Promise<PassReport>;
  /** Closes the instance's connections (PostgreSQL, Redis), for hosts and tests that end an instance themselves. */
  close(): Promise<void>;
}

/**
 * Builds the service for a function host from its environment and the build it was bundled
 * with. The configuration is checked here, at creation: a bad variable, a build made for other
 * values, or an embedded engine (EmbeddedEngineRefused) throws before any request is answered.
 * The connections are opened by the first request (or scheduled pass), as a cold start.
 *
 * ```ts
 * import build from './build-data.json';
 * const service = createFetchHandler(process.env, build);
 * export default service.fetch;
 * ```
 */
export function createFetchHandler(env: Env, build: BuildData): ServiceFunction {
  const config = loadConfig(env);
  assertSharedEngines(config);
  if (!config.allowBuildMismatch) assertBuildMatches(build.manifest, env);

  let opening: Promise<{ api: Api; handle: Handle }> | undefined;
  /** The service once open: what a request left due is taken from it right after the answer. */
  let opened: Api | undefined;
  const open = () =>
    (opening ??= openService(config, build).then(
      (service) => {
        opened = service.api;
        return service;
      },
      (error: unknown) => {
        // The next request tries again (PostgreSQL may be starting).
        opening = undefined;
        throw error;
      },
    ));

  const fetch = fetchHandlerOver({
    config,
    handle: async (request) => {
      let service: { handle: Handle };
      try {
        service = await open();
      } catch (error) {
        logError(request.requestId, error, { event: 'service start failed' });
        return lastResortAnswer(request.requestId);
      }
      return service.handle(request);
    },
    takeDueWork: () => opened?.services.background?.takeDue(),
  });

  return {
    fetch,
    runScheduled: async () => {
      const { api } = await open();
      try {
        return await (api.services.background as NonNullable<typeof api.services.background>).runPass();
      } finally {
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

async function openService(config: Config, build: BuildData): Promise<{ api: Api; handle: Handle }> {
  const api = await createApi(config, build.projects, build.searchIndex, 'function');
  await api.services.quotas.ready();
  return { api, handle: serviceHandle(api, build.docs, (path) => build.pageTemplates[path]) };
}
