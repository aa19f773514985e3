import type { RateQuota } from './rate-quota.ts';
import type { EnvVariable } from './env-variables.ts';
import { inboxCommand } from './inbox-command.ts';
import { effectiveValue, readVariable, type Env } from './read-variable.ts';
import { backendOrigin, databaseUrl, emailSettings, requestTimeoutMs } from './config-checks.ts';

// Defined below the rules between variables (config-checks.ts), which throw and read them too;
// the rest of the service takes them from here, with loadConfig.
export { ConfigError, effectiveValue, type Env } from './read-variable.ts';

/** The whole configuration, each member read from its variable (env-variables.ts) by loadConfig. */
export interface Config {
  port: number;
  host: string;
  /** Base URL without a trailing slash, e.g. `https://ada.example`. */
  siteUrl: string;
  /** The dynamic part's own origin when the pages are served elsewhere (API_ORIGIN), else null. */
  apiOrigin: string | null;
  /** Where a static host's proxy rules send the dynamic paths while the pages name SITE_URL (BACKEND_ORIGIN), else null. */
  backendOrigin: string | null;
  dataDir: string;
  trustProxy: number;
  readRateLimit: RateQuota;
  contactRateLimit: RateQuota;
  /** How long a person takes at least to fill the contact form (functions/contact/form-token.ts). */
  contactMinFillSeconds: number;
  keysRateLimit: RateQuota;
  testKeyReadRateLimit: RateQuota;
  testKeyContactRateLimit: RateQuota;
  testKeyTtlSeconds: number;
  tokenTtlSeconds: number;
  idempotencyTtlSeconds: number;
  notify: NotifyConfig;
  jobs: JobLimits;
  /** How long sandbox contact messages are kept. */
  sandboxRetentionSeconds: number;
  /** The most sandbox message text one client, and one test key, keeps (functions/contact/contact-service.ts). */
  sandboxStorageBytes: number;
  batchMaxOperations: number;
  rateLimitMaxClients: number;
  /** Where quotas are counted when several instances share them; null counts in this process. */
  redisUrl: string | null;
  /** The PostgreSQL that holds all durable state when several instances share it; null keeps it in SQLite. */
  databaseUrl: string | null;
  connections: ConnectionLimits;
  /** Origins allowed to call the MCP servers; null is the default (the site's origin and loopback). */
  mcpAllowedOrigins: string[] | null;
  /** Host names the MCP servers answer for besides the SITE_URL host (and loopback when bound to it). */
  mcpAllowedHosts: string[];
  accessLog: boolean;
  /** Serve a build whose baked values differ from this configuration (tests of enforcement only). */
  allowBuildMismatch: boolean;
}

/** How the owner is told about new messages: each channel is null when not configured. */
interface NotifyConfig {
  webhook: { url: string; secret: string | null } | null;
  email: EmailConfig | null;
  retryBaseMs: number;
  maxAttempts: number;
  /** The command that shows the spam folder, as each notification names it when there is spam. */
  spamCommand: string;
}

export interface EmailConfig {
  /** smtp:// or smtps://, credentials included, as nodemailer reads it. */
  smtpUrl: string;
  to: string;
  /** An address, optionally with a display name: `Portfolio <site@example.com>`. */
  from: string;
  /** The command that shows this service's inbox, as each mail gives it (functions/config/inbox-command.ts). */
  inboxCommand: string;
}

/** The job queue's capacity and what one client may take of it (see ENV_VARIABLES for each meaning). */
export interface JobLimits {
  concurrency: number;
  queueLimit: number;
  queuePerClient: number;
  runningPerClient: number;
  resultsPerClient: number;
  retentionSeconds: number;
  leaseSeconds: number;
}

/** What keeps slow or idle connections from holding the server's sockets (see functions/hosts/node/connection-limits.ts). */
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
  maxConnectionsPerClient: number;
}

/** API_ORIGIN: the dynamic part's own origin, which the pages and documents name. */
export function apiOrigin(env: Env): string | null {
  return readVariable(env, 'API_ORIGIN');
}

/**
 * Reads and validates the whole configuration; throws a ConfigError naming the first bad variable.
 * Each variable is read by its kind (env-variables.ts); config-checks.ts adds the rules between them.
 */
export function loadConfig(env: Env = process.env): Config {
  const read = <V extends EnvVariable>(variable: V) => readVariable(env, variable);
  const site = read('SITE_URL');
  const api = read('API_ORIGIN');
  return {
    port: read('PORT'),
    host: read('HOST'),
    siteUrl: site,
    apiOrigin: api,
    backendOrigin: backendOrigin(env, site, api),
    dataDir: read('DATA_DIR'),
    trustProxy: read('TRUST_PROXY'),
    readRateLimit: read('READ_RATE_LIMIT'),
    contactRateLimit: read('CONTACT_RATE_LIMIT'),
    contactMinFillSeconds: read('CONTACT_MIN_FILL_SECONDS'),
    keysRateLimit: read('KEYS_RATE_LIMIT'),
    testKeyReadRateLimit: read('TEST_KEY_READ_RATE_LIMIT'),
    testKeyContactRateLimit: read('TEST_KEY_CONTACT_RATE_LIMIT'),
    testKeyTtlSeconds: read('TEST_KEY_TTL_SECONDS'),
    tokenTtlSeconds: read('TOKEN_TTL_SECONDS'),
    idempotencyTtlSeconds: read('IDEMPOTENCY_TTL_SECONDS'),
    notify: notifyConfig(env),
    batchMaxOperations: read('BATCH_MAX_OPERATIONS'),
    jobs: {
      concurrency: read('JOB_CONCURRENCY'),
      queueLimit: read('JOB_QUEUE_LIMIT'),
      queuePerClient: read('JOB_QUEUE_PER_CLIENT'),
      runningPerClient: read('JOB_RUNNING_PER_CLIENT'),
      resultsPerClient: read('JOB_RESULTS_PER_CLIENT'),
      retentionSeconds: read('JOB_RETENTION_SECONDS'),
      leaseSeconds: read('JOB_LEASE_SECONDS'),
    },
    sandboxRetentionSeconds: read('SANDBOX_RETENTION_SECONDS'),
    sandboxStorageBytes: read('SANDBOX_STORAGE_BYTES'),
    rateLimitMaxClients: read('RATE_LIMIT_MAX_CLIENTS'),
    redisUrl: read('REDIS_URL'),
    databaseUrl: databaseUrl(env),
    connections: connectionLimits(env),
    mcpAllowedOrigins: read('MCP_ALLOWED_ORIGINS'),
    mcpAllowedHosts: read('MCP_ALLOWED_HOSTS'),
    accessLog: read('ACCESS_LOG'),
    allowBuildMismatch: read('ALLOW_BUILD_MISMATCH'),
  };
}

function connectionLimits(env: Env): ConnectionLimits {
  const headersTimeoutMs = readVariable(env, 'HEADERS_TIMEOUT_MS');
  return {
    headersTimeoutMs,
    requestTimeoutMs: requestTimeoutMs(env, headersTimeoutMs),
    maxConnections: readVariable(env, 'MAX_CONNECTIONS'),
    maxConnectionsPerClient: readVariable(env, 'MAX_CONNECTIONS_PER_CLIENT'),
  };
}

function notifyConfig(env: Env): NotifyConfig {
  const webhookUrl = readVariable(env, 'NOTIFY_WEBHOOK_URL');
  const secret = readVariable(env, 'NOTIFY_WEBHOOK_SECRET');
  const email = emailSettings(env);
  return {
    webhook: webhookUrl === null ? null : { url: webhookUrl, secret },
    email: email === null ? null : { ...email, inboxCommand: ownerInboxCommand(env) },
    retryBaseMs: readVariable(env, 'NOTIFY_RETRY_BASE_MS'),
    maxAttempts: readVariable(env, 'NOTIFY_MAX_ATTEMPTS'),
    spamCommand: ownerInboxCommand(env, ['--spam']),
  };
}

/** The exact `npm run inbox` command for this installation (inbox-command.ts), with `options`. */
function ownerInboxCommand(env: Env, options: readonly string[] = []): string {
  return inboxCommand(
    {
      envFile: readVariable(env, 'PORTFOLIO_ENV_FILE'),
      dataDir: readVariable(env, 'DATA_DIR'),
      onSqlite: effectiveValue(env, 'DATABASE_URL') === '',
    },
    undefined,
    options,
  );
}
