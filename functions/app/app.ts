import type { Config } from '../config/env.ts';
import { crossOriginWriter } from '../http/cors.ts';
import { RequestContexts } from '../http/request-context.ts';
import { Router } from '../http/router.ts';
import { logError } from '../log/log.ts';
import type { ProjectSource } from '../projects/catalog.ts';
import type { SearchIndexJson } from '../search/load-search-index.ts';
import { apiRoutes } from './routes.ts';
import { createServices, type ServiceRuntime, type Services } from './services.ts';
import type { ConnectionSlots } from '../state/storage.ts';

/** The API as one object: its shared services, the router over its routes, and each request's caller. */
export interface Api {
  services: Services;
  router: Router;
  /** Who calls, and the one way to charge them, for the router and the endpoints alike. */
  contexts: RequestContexts;
}

export async function createApi(
  config: Config,
  projects: readonly ProjectSource[],
  searchIndex?: SearchIndexJson,
  runtime?: ServiceRuntime,
  slots?: ConnectionSlots,
): Promise<Api> {
  const services = await createServices(config, projects, searchIndex, runtime, slots);
  const contexts = new RequestContexts((credential) => services.keys.verify(credential), services.quotas);
  const router = new Router(apiRoutes(services), {
    contexts,
    logError,
    isForeignOrigin: crossOriginWriter(config.siteUrl),
  });
  return { services, router, contexts };
}
