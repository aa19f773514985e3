import type { Config } from './config/env.ts';
import { ContactService } from './contact/contact-service.ts';
import { Notifier } from './contact/notifier.ts';
import { RateLimiter } from './limits/rate-limiter.ts';
import { Catalog, type ProjectSource } from './projects/catalog.ts';
import { CursorCodec } from './projects/cursor.ts';
import { openDatabase, type Db } from './state/database.ts';
import { IdempotencyStore } from './state/idempotency-store.ts';
import { MessageStore } from './state/message-store.ts';
import { loadOrCreateSecret } from './state/secret.ts';

/** How often expired idempotency records are swept. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/** Everything the handlers share, built once per process from the configuration and the content. */
export interface Services {
  config: Config;
  catalog: Catalog;
  cursors: CursorCodec;
  readLimiter: RateLimiter;
  db: Db;
  messages: MessageStore;
  contact: ContactService;
  /** Stops background work and closes the database. */
  close(): void;
}

export function createServices(config: Config, projects: readonly ProjectSource[]): Services {
  const db = openDatabase(config.dataDir);
  const idempotency = new IdempotencyStore(db, config.idempotencyTtlSeconds * 1000);
  // One process owns the database: claims left by a previous process ended with it.
  idempotency.purge(Date.now(), { abandonedClaims: true });
  const purgeTimer = setInterval(() => idempotency.purge(), PURGE_INTERVAL_MS).unref();
  const messages = new MessageStore(db);
  const notifier = config.notify === null ? null : new Notifier(messages, config.notify);
  notifier?.wake();

  return {
    config,
    catalog: new Catalog(projects, config.siteUrl),
    cursors: new CursorCodec(loadOrCreateSecret(config.dataDir, 'cursor.key')),
    readLimiter: new RateLimiter(config.readRateLimit, config.rateLimitMaxClients),
    db,
    messages,
    contact: new ContactService({
      db,
      idempotency,
      messages,
      limiter: new RateLimiter(config.contactRateLimit, config.rateLimitMaxClients),
      notifyConfigured: notifier !== null,
      onStored: () => notifier?.wake(),
    }),
    close() {
      clearInterval(purgeTimer);
      notifier?.stop();
      db.close();
    },
  };
}
