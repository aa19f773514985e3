import type { Config } from '../config/env.ts';
import { crossOriginWriter } from '../http/cors.ts';
import { Router } from '../http/router.ts';
import { charge } from '../limits/charge.ts';
import type { QuotaName } from '../limits/quotas.ts';
import { logError } from '../log/log.ts';
import type { ProjectSource } from '../projects/catalog.ts';
import { apiRoutes } from './routes.ts';
import { createServices, type Services } from './services.ts';

/** The API as one object: its shared services and the router over its routes. */
export interface Api {
  services: Services;
  router: Router<QuotaName>;
}

export async function createApi(
  config: Config,
  projects: readonly ProjectSource[],
  searchIndex?: string,
): Promise<Api> {
  const services = await createServices(config, projects, searchIndex);
  const router = new Router(apiRoutes(services), {
    chargeQuota: (context, quota, units, what) =>
      charge(services.quotas.limiter(context.tier, quota), context.quotaKey, units, what),
    verifyCredential: (credential) => services.keys.verify(credential),
    logError,
    isForeignOrigin: crossOriginWriter(config.siteUrl),
  });
  return { services, router };
}
