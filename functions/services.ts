import type { Config } from './config/env.ts';
import { ContactService } from './contact/contact-service.ts';
import { Notifier } from './contact/notifier.ts';
import { JobService } from './jobs/job-service.ts';
import { AccessTokens } from './keys/access-token.ts';
import { KeyService } from './keys/key-service.ts';
import { KeyStore } from './keys/key-store.ts';
import { logError, logEvent } from './log.ts';
import { QuotaBook } from './limits/quotas.ts';
import { Catalog, type ProjectSource } from './projects/catalog.ts';
import { CursorCodec } from './projects/cursor.ts';
import { loadSearchIndex } from './search/load-search-index.ts';
import type { SearchIndex } from './search/search-index.ts';
import { isReadOnly, openDatabase, type Db } from './state/database.ts';
import { IdempotencyStore } from './state/idempotency-store.ts';
import { MessageStore } from './contact/message-store.ts';
import { loadOrCreateSecret } from './state/secret.ts';

/** How often expired records (idempotency keys, test keys, old sandbox messages) are swept. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/** Everything the handlers share, built once per process from the configuration and the content. */
export interface Services {
  config: Config;
  catalog: Catalog;
  cursors: CursorCodec;
  quotas: QuotaBook;
  db: Db;
  contact: ContactService;
  keys: KeyService;
  jobs: JobService;
  search: SearchIndex;
  /** Stops background work and closes the database. */
  close(): void;
}

/** Housekeeping that may fail on a full or read-only disk without stopping anything: it runs again later. */
function purgeExpired(purge: () => void): void {
  try {
    purge();
  } catch (error) {
    logError('purge', error);
  }
}

/** `searchIndex` is the JSON of the build's search index; without it one is made from the projects. */
export function createServices(config: Config, projects: readonly ProjectSource[], searchIndex?: string): Services {
  const db = openDatabase(config.dataDir);
  const catalog = new Catalog(projects, config.siteUrl);
  const idempotency = new IdempotencyStore(db, config.idempotencyTtlSeconds * 1000);
  const keyStore = new KeyStore(db);
  if (isReadOnly(db))
    logEvent(
      'DATA_DIR is read-only: serving reads; writes answer 503 storage_unavailable until a restart on a writable DATA_DIR',
      { dataDir: config.dataDir },
    );
  const messages = new MessageStore(db);
  const purgeSandboxMessages = () => messages.purgeSandbox(Date.now() - config.sandboxRetentionSeconds * 1000);
  purgeExpired(() => idempotency.purge());
  purgeExpired(purgeSandboxMessages);
  const purgeTimer = setInterval(() => {
    purgeExpired(() => idempotency.purge());
    purgeExpired(() => keyStore.purgeExpired());
    purgeExpired(purgeSandboxMessages);
  }, PURGE_INTERVAL_MS).unref();
  const notifier = config.notify === null ? null : new Notifier(messages, config.notify);
  notifier?.wake();
  const quotas = new QuotaBook(config);
  const jobs = new JobService({ db, catalog, ...config.jobs });

  return {
    config,
    catalog,
    cursors: new CursorCodec(loadOrCreateSecret(config.dataDir, 'cursor.key')),
    quotas,
    db,
    contact: new ContactService({
      db,
      idempotency,
      messages,
      notifyConfigured: notifier !== null,
      onStored: () => notifier?.wake(),
    }),
    keys: new KeyService(
      keyStore,
      new AccessTokens(loadOrCreateSecret(config.dataDir, 'token.key')),
      config.testKeyTtlSeconds,
      config.tokenTtlSeconds,
    ),
    jobs,
    search: loadSearchIndex(searchIndex, projects),
    close() {
      clearInterval(purgeTimer);
      quotas.close();
      notifier?.stop();
      // Running jobs are abandoned, not written: the next start marks them interrupted.
      jobs.close();
      db.close();
    },
  };
}
