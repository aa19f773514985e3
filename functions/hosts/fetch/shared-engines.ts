import type { Config } from '../../config/env.ts';

/**
 * Thrown when a function is started on an embedded engine. Any request may reach a new instance,
 * and each instance has its own SQLite file and its own in-memory quotas: stored messages, keys
 * and jobs would be lost between instances, and every instance would grant each quota anew.
 */
export class EmbeddedEngineRefused extends Error {
  constructor(missing: readonly string[]) {
    super(
      `A function instance may be new on every request, so it needs shared state: set ${missing.join(' and ')}` +
        ' (without DATABASE_URL data lives in SQLite per instance and is lost between instances;' +
        ' without REDIS_URL quotas are counted per instance and reset on each).',
    );
    this.name = 'EmbeddedEngineRefused';
  }
}

/** Refuses the embedded engines (SQLite, in-memory quotas): a function needs PostgreSQL and Redis. */
export function assertSharedEngines(config: Pick<Config, 'databaseUrl' | 'redisUrl'>): void {
  const missing = [
    ...(config.databaseUrl === null ? ['DATABASE_URL (PostgreSQL)'] : []),
    ...(config.redisUrl === null ? ['REDIS_URL (Redis)'] : []),
  ];
  if (missing.length > 0) throw new EmbeddedEngineRefused(missing);
}
