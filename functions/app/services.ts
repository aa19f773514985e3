import type { Config } from '../config/env.ts';
import { ContactService } from '../contact/contact-service.ts';
import { EmailSender } from '../contact/email-sender.ts';
import {
  FORM_TOKEN_CLOCK_SKEW_MS,
  FORM_TOKEN_MAX_AGE_MS,
  FORM_TOKEN_MAX_MESSAGES,
  FormTokens,
} from '../contact/form-token.ts';
import { Notifier, type ChannelSender } from '../contact/notifier.ts';
import { WebhookSender } from '../contact/webhook-sender.ts';
import { JobService } from '../jobs/job-service.ts';
import { AccessTokens } from '../keys/access-token.ts';
import { KeyService } from '../keys/key-service.ts';
import { logError, logEvent, logWarning } from '../log/log.ts';
import { QuotaBook } from '../limits/quotas.ts';
import { Catalog, type ProjectSource } from '../projects/catalog.ts';
import { CursorCodec } from '../projects/cursor.ts';
import { loadSearchIndex } from '../search/load-search-index.ts';
import type { SearchIndex } from '../search/search-index.ts';
import { openStorage } from '../state/open-storage.ts';
import { BackgroundWork } from './background-work.ts';
import type { Storage } from '../state/storage.ts';

/** How often expired records (idempotency keys, test keys, old sandbox messages, ended quota windows) are swept. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;
/** A contact claim outlives the longest request by this much (see ContactDependencies.claimLeaseMs). */
const CLAIM_LEASE_MARGIN_MS = 5_000;

/**
 * Where the service runs: a long-lived server, which runs its background work on timers, or
 * short-lived function instances, which keep nothing running between requests (the host asks
 * for that work through `Services.background`) and use a small PostgreSQL pool.
 */
export type ServiceRuntime = 'long-lived' | 'function';

/** A function has seconds to answer: PostgreSQL that is not there by then is reported, not waited for. */
const FUNCTION_POSTGRES_WAIT_MS = 3_000;

/** Everything the handlers share, built once per process from the configuration and the content. */
export interface Services {
  config: Config;
  catalog: Catalog;
  cursors: CursorCodec;
  quotas: QuotaBook;
  storage: Storage;
  contact: ContactService;
  /** The contact page's fill-time tokens, issued with the page and checked by the contact service. */
  formTokens: FormTokens;
  keys: KeyService;
  jobs: JobService;
  search: SearchIndex;
  /** The background work a function host runs on request (null on a long-lived server, which runs it on timers). */
  background: BackgroundWork | null;
  /** Stops background work and closes the storage. */
  close(): Promise<void>;
}

/** Housekeeping that may fail (a full or read-only disk, PostgreSQL down) without stopping anything: it runs again later. */
async function purgeExpired(purges: readonly (() => Promise<unknown>)[]): Promise<void> {
  for (const purge of purges) {
    try {
      await purge();
    } catch (error) {
      logError('purge', error);
    }
  }
}

/** A sender per configured channel (webhook, email); the start-up log says which, and whether posts are signed. */
function channelSenders({ notify, siteUrl }: Config): ChannelSender[] {
  const senders: ChannelSender[] = [];
  if (notify.webhook !== null) {
    senders.push(new WebhookSender(notify.webhook.url, notify.webhook.secret));
    if (notify.webhook.secret === null)
      logWarning('webhook deliveries are unsigned: set NOTIFY_WEBHOOK_SECRET to sign them (Portfolio-Signature)');
  }
  if (notify.email !== null) senders.push(new EmailSender(notify.email, siteUrl));
  if (senders.length > 0)
    logEvent('new contact messages are delivered to the owner', { channels: senders.map((sender) => sender.channel) });
  return senders;
}

/** `searchIndex` is the JSON of the build's search index; without it one is made from the projects. */
export async function createServices(
  config: Config,
  projects: readonly ProjectSource[],
  searchIndex?: string,
  runtime: ServiceRuntime = 'long-lived',
): Promise<Services> {
  const onDemand = runtime === 'function';
  const storage = onDemand ? await openStorage(config, FUNCTION_POSTGRES_WAIT_MS, true) : await openStorage(config);
  const catalog = new Catalog(projects, config.siteUrl);
  if (storage.readOnly)
    logEvent(
      'DATA_DIR is read-only: serving reads; writes answer 503 storage_unavailable until a restart on a writable DATA_DIR',
      { dataDir: config.dataDir },
    );
  const { quotaCounts } = storage;
  const purges = [
    () => storage.idempotency.purge(),
    () => storage.keys.purgeExpired(),
    () => storage.messages.purgeSandbox(Date.now() - config.sandboxRetentionSeconds * 1000),
    ...(quotaCounts === undefined ? [] : [() => quotaCounts.purgeExpired()]),
  ];
  const notifiers = channelSenders(config).map((sender) => new Notifier(storage.messages, sender, config.notify));
  const quotas = await QuotaBook.open(config, quotaCounts ?? null);
  const jobDeps = { store: storage.jobs, catalog, ...config.jobs };
  let purgeTimer: NodeJS.Timeout | undefined;
  let jobs: JobService;
  let background: BackgroundWork | null = null;
  if (onDemand) {
    const work = new BackgroundWork(
      notifiers,
      () => jobs,
      () => purgeExpired(purges),
    );
    jobs = JobService.open(jobDeps, () => work.markJobsDue());
    background = work;
  } else {
    await purgeExpired(purges);
    purgeTimer = setInterval(() => void purgeExpired(purges), PURGE_INTERVAL_MS).unref();
    for (const notifier of notifiers) notifier.wake();
    jobs = await JobService.start(jobDeps);
  }
  const [cursorKey, tokenKey, formKey] = await Promise.all([
    storage.secrets.loadOrCreate('cursor'),
    storage.secrets.loadOrCreate('token'),
    storage.secrets.loadOrCreate('form'),
  ]);
  const formTokens = new FormTokens(formKey, config.contactMinFillSeconds * 1000, config.apiOrigin === null);

  return {
    config,
    catalog,
    cursors: new CursorCodec(cursorKey),
    quotas,
    storage,
    contact: new ContactService({
      idempotency: storage.idempotency,
      messages: storage.messages,
      formTokens,
      formTokenMessages: quotas.counter('form-token', {
        count: FORM_TOKEN_MAX_MESSAGES,
        seconds: (FORM_TOKEN_MAX_AGE_MS + FORM_TOKEN_CLOCK_SKEW_MS) / 1000,
      }),
      channels: notifiers.map((notifier) => notifier.channel),
      claimLeaseMs: config.connections.requestTimeoutMs + CLAIM_LEASE_MARGIN_MS,
      sandboxStorageBytes: config.sandboxStorageBytes,
      onStored: () =>
        background === null ? notifiers.forEach((notifier) => notifier.wake()) : background.markDeliveriesDue(),
    }),
    formTokens,
    keys: new KeyService(storage.keys, new AccessTokens(tokenKey), config.testKeyTtlSeconds, config.tokenTtlSeconds),
    jobs,
    search: loadSearchIndex(searchIndex, projects),
    background,
    async close() {
      clearInterval(purgeTimer);
      quotas.close();
      // Running jobs are abandoned, not written: their leases run out (see JobWorker).
      jobs.close();
      await Promise.all(notifiers.map((notifier) => notifier.stop()));
      await storage.close();
    },
  };
}
