import type { Config } from '../../config/env.ts';

/**
 * Thrown when a function is started on the embedded engine. Any request may reach a new instance,
 * and each instance would have its own SQLite file and its own quotas: stored messages, keys and
 * jobs would be lost between instances, and every instance would grant each quota anew.
 */
export class EmbeddedEngineRefused extends Error {
  constructor() {
    super(
      'A function instance may be new on every request, so it needs shared state: set DATABASE_URL (PostgreSQL)' +
        ' (without it data lives in SQLite per instance and is lost between instances, and the contact and key' +
        ' quotas are counted per instance and reset on each). REDIS_URL is optional.',
    );
    this.name = 'EmbeddedEngineRefused';
  }
}

/**
 * Refuses the embedded engine: a function needs PostgreSQL, which holds its state and counts its
 * contact and key quotas (functions/limits/quotas.ts); Redis only takes those counts over when set.
 */
export function assertSharedEngines(config: Pick<Config, 'databaseUrl'>): void {
  if (config.databaseUrl === null) throw new EmbeddedEngineRefused();
}
