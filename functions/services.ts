import type { Config } from './config/env.ts';
import { RateLimiter } from './limits/rate-limiter.ts';
import { Catalog, type ProjectSource } from './projects/catalog.ts';
import { CursorCodec } from './projects/cursor.ts';
import { loadOrCreateSecret } from './state/secret.ts';

/** Everything the handlers share, built once per process from the configuration and the content. */
export interface Services {
  config: Config;
  catalog: Catalog;
  cursors: CursorCodec;
  readLimiter: RateLimiter;
}

export function createServices(config: Config, projects: readonly ProjectSource[]): Services {
  return {
    config,
    catalog: new Catalog(projects, config.siteUrl),
    cursors: new CursorCodec(loadOrCreateSecret(config.dataDir, 'cursor.key')),
    readLimiter: new RateLimiter(config.readRateLimit, config.rateLimitMaxClients),
  };
}
