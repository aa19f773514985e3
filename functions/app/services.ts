import type { Config } from '../config/env.ts';
import { checkoutInboxCommand } from '../config/inbox-command.ts';
import { ContactService } from '../contact/contact-service.ts';
import { EmailSender } from '../contact/email-sender.ts';
import { FORM_TOKEN_CLOCK_SKEW_MS, FORM_TOKEN_MAX_AGE_MS, FORM_TOKEN_MAX_MESSAGES } from '../contact/form-token.ts';
import { Notifier, type ChannelSender } from '../contact/notifier.ts';
import { WebhookSender } from '../contact/webhook-sender.ts';
import { JobService } from '../jobs/job-service.ts';
import { KeyService } from '../keys/key-service.ts';
import { logError, logEvent, logWarning } from '../log/log.ts';
import { QuotaBook } from '../limits/quotas.ts';
import { Catalog, type ProjectSource } from '../projects/catalog.ts';
import { loadSearchIndex, type SearchEngine, type SearchIndexJson } from '../search/load-search-index.ts';
import { openStorage } from '../state/open-storage.ts';
import { BackgroundWork } from './background-work.ts';
import { SigningKeys } from './signing-keys.ts';
import type { ConnectionSlots, Storage } from '../state/storage.ts';

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

/** Everything the handlers share, built once per process from the configuration and the content. */
export interface Services {
  config: Config;
  catalog: Catalog;
  /** The signers (cursors, form tokens, access tokens), whose secrets are read when first needed. */
  signing: SigningKeys;
  quotas: QuotaBook;
  storage: Storage;
  contact: ContactService;
  keys: KeyService;
  jobs: JobService;
  search: SearchEngine;
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

/**
 * What each notification says besides the message. On a function host the commands it names are
 * run from the owner's checkout (checkoutInboxCommand), not in the service's folder, which is the
 * host's own.
 */
export function notifySettings({ notify }: Config, runtime: ServiceRuntime): Config['notify'] {
  if (runtime === 'long-lived') return notify;
  return {
    ...notify,
    spamCommand: checkoutInboxCommand(['--spam']),
    email: notify.email === null ? null : { ...notify.email, inboxCommand: checkoutInboxCommand() },
  };
}

/** `searchIndex` is the JSON of the build's search index (or its reader); without it one is made from the projects. */
export async function createServices(
  config: Config,
  projects: readonly ProjectSource[],
  searchIndex?: SearchIndexJson,
  runtime: ServiceRuntime = 'long-lived',
  slots?: ConnectionSlots,
): Promise<Services> {
  const onDemand = runtime === 'function';
  const storage = await openStorage(config, { runtime, slots });
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
  const notify = notifySettings(config, runtime);
  const notifiers = channelSenders({ ...config, notify }).map(
    (sender) => new Notifier(storage.messages, sender, notify),
  );
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
  const signing = new SigningKeys(storage.secrets, config);
  // A long-lived server reads its secrets at start, so that a storage outage later leaves cursors,
  // tokens and forms verifiable, and a new deployment's secrets exist (backups copy them).
  if (!onDemand) await signing.load();
  const formTokens = () => signing.load().then((signers) => signers.formTokens);

  return {
    config,
    catalog,
    signing,
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
    keys: new KeyService(
      storage.keys,
      () => signing.load().then((signers) => signers.accessTokens),
      config.testKeyTtlSeconds,
      config.tokenTtlSeconds,
    ),
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
