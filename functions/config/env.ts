import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { parseRateQuota, type RateQuota } from './rate-quota.ts';
import { SITE_URL_RULE, siteBaseUrl } from './site-url.ts';
import { SANDBOX_STORAGE_MIN_BYTES } from './fixed-limits.ts';
import { redactUrl } from './redact-url.ts';
import { ENV_VARIABLES, type EnvVariable } from './env-variables.ts';
import { inboxCommand } from './inbox-command.ts';

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

/** What keeps slow or idle connections from holding the server's sockets (see server/connection-limits.ts). */
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
  maxConnectionsPerClient: number;
}

/** Thrown when a variable has a value the service cannot run with; the message names the variable. */
export class ConfigError extends Error {
  constructor(variable: EnvVariable, value: string, expected: string) {
    super(`Invalid ${variable}=${JSON.stringify(value)}: expected ${expected}.`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** A variable's value as the service reads it: the environment's, or the default when unset or empty. */
export function effectiveValue(env: Env, variable: EnvVariable): string {
  const value = env[variable];
  return value === undefined || value === '' ? ENV_VARIABLES[variable].default : value;
}

function integer(env: Env, variable: EnvVariable, min: number, max: number): number {
  const text = effectiveValue(env, variable);
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new ConfigError(variable, text, `an integer from ${min} to ${max}`);
  }
  return value;
}

function quota(env: Env, variable: EnvVariable): RateQuota {
  const text = effectiveValue(env, variable);
  const parsed = parseRateQuota(text);
  if (!parsed) throw new ConfigError(variable, text, '<count>/<seconds> with both at least 1, e.g. 120/60');
  return parsed;
}

function boolean(env: Env, variable: EnvVariable): boolean {
  const text = effectiveValue(env, variable).toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw new ConfigError(variable, text, 'true or false');
}

/** SITE_URL when set, else the siteUrl of content/site.json (already checked by the same rule when read). */
function siteUrl(env: Env): string {
  const text = effectiveValue(env, 'SITE_URL');
  const url = siteBaseUrl(text);
  if (url === null) throw new ConfigError('SITE_URL', text, SITE_URL_RULE);
  return url;
}

/** Hosts a browser trusts over plain http (Secure Contexts, "potentially trustworthy origin"). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An origin the service answers on (API_ORIGIN, BACKEND_ORIGIN): a serialized origin (scheme,
 * host, optional port; no path, query or credentials), https unless its host is loopback, since
 * pages on https may not post to or fetch from http (mixed content) and a visitor's message must
 * not cross the network in the clear.
 */
function serviceOrigin(env: Env, variable: 'API_ORIGIN' | 'BACKEND_ORIGIN'): string | null {
  const text = effectiveValue(env, variable).trim();
  if (text === '') return null;
  const expected = `an origin such as https://${variable === 'API_ORIGIN' ? 'api' : 'backend'}.ada.example (https, or http on localhost/127.0.0.1/[::1]; no path), or empty`;
  if (!URL.canParse(text)) throw new ConfigError(variable, text, expected);
  const url = new URL(text);
  const plainAllowed = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if ((url.protocol !== 'https:' && !plainAllowed) || url.origin !== text.replace(/\/$/, '').toLowerCase())
    throw new ConfigError(variable, text, expected);
  return url.origin;
}

/** API_ORIGIN: the dynamic part's own origin, which the pages and documents name. */
export function apiOrigin(env: Env): string | null {
  return serviceOrigin(env, 'API_ORIGIN');
}

/**
 * BACKEND_ORIGIN: where a static host proxies the dynamic paths of SITE_URL. Not with API_ORIGIN:
 * the pages would name API_ORIGIN, and the proxy to another origin would be a second, unused way
 * in. Not the site's own origin either: the host would proxy each request to itself.
 */
function backendOrigin(env: Env, site: string, api: string | null): string | null {
  const origin = serviceOrigin(env, 'BACKEND_ORIGIN');
  if (origin === null) return null;
  if (api !== null)
    throw new ConfigError(
      'BACKEND_ORIGIN',
      origin,
      `empty while API_ORIGIN is set (${api}): set one of them, BACKEND_ORIGIN to keep the service behind SITE_URL's proxy rules, API_ORIGIN to name its origin in the pages`,
    );
  if (origin === new URL(site).origin)
    throw new ConfigError('BACKEND_ORIGIN', origin, `an origin other than SITE_URL's (${origin}), or empty`);
  return origin;
}

/** An absolute URL with one of `protocols` (e.g. `['http:', 'https:']`), or null when empty. */
function optionalUrl(env: Env, variable: EnvVariable, protocols: readonly string[]): string | null {
  const text = effectiveValue(env, variable);
  if (text === '') return null;
  try {
    const url = new URL(text);
    if (protocols.includes(url.protocol)) return url.href;
  } catch {
    // Reported below with the variable's name.
  }
  const schemes = protocols.map((protocol) => `${protocol}//`).join(' or ');
  throw new ConfigError(variable, redactUrl(text), `an absolute ${schemes} URL, or empty`);
}

/** The query parameters of DATABASE_URL that name a file the driver reads when it connects. */
const DATABASE_URL_FILES = ['sslkey', 'sslcert', 'sslrootcert'] as const;

/**
 * DATABASE_URL, with each file it names (the TLS key and certificates) readable now: the driver
 * reads them only when it first connects, and a missing one would stop the process there with a
 * stack trace instead of this one line.
 */
function databaseUrl(env: Env): string | null {
  const url = optionalUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  if (url === null) return null;
  const params = new URL(url).searchParams;
  for (const name of DATABASE_URL_FILES) {
    const file = params.get(name);
    if (file === null) continue;
    try {
      accessSync(file, constants.R_OK);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new ConfigError('DATABASE_URL', redactUrl(url), `its ${name} file ${file} to be readable (${reason})`);
    }
  }
  return url;
}

function host(env: Env): string {
  const text = effectiveValue(env, 'HOST');
  if (!/^[A-Za-z0-9.:\-[\]]{1,253}$/.test(text)) throw new ConfigError('HOST', text, 'a host name or IP address');
  return text;
}

/** Reads and validates the whole configuration; throws a ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const site = siteUrl(env);
  const api = apiOrigin(env);
  return {
    port: integer(env, 'PORT', 0, 65535),
    host: host(env),
    siteUrl: site,
    apiOrigin: api,
    backendOrigin: backendOrigin(env, site, api),
    dataDir: path.resolve(effectiveValue(env, 'DATA_DIR')),
    trustProxy: integer(env, 'TRUST_PROXY', 0, 10),
    readRateLimit: quota(env, 'READ_RATE_LIMIT'),
    contactRateLimit: quota(env, 'CONTACT_RATE_LIMIT'),
    contactMinFillSeconds: integer(env, 'CONTACT_MIN_FILL_SECONDS', 0, 3600),
    keysRateLimit: quota(env, 'KEYS_RATE_LIMIT'),
    testKeyReadRateLimit: quota(env, 'TEST_KEY_READ_RATE_LIMIT'),
    testKeyContactRateLimit: quota(env, 'TEST_KEY_CONTACT_RATE_LIMIT'),
    testKeyTtlSeconds: integer(env, 'TEST_KEY_TTL_SECONDS', 60, 365 * 86400),
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 60, 86400),
    idempotencyTtlSeconds: integer(env, 'IDEMPOTENCY_TTL_SECONDS', 60, 365 * 86400),
    notify: notifyConfig(env),
    batchMaxOperations: integer(env, 'BATCH_MAX_OPERATIONS', 1, 1000),
    jobs: {
      concurrency: integer(env, 'JOB_CONCURRENCY', 1, 64),
      queueLimit: integer(env, 'JOB_QUEUE_LIMIT', 1, 100_000),
      queuePerClient: integer(env, 'JOB_QUEUE_PER_CLIENT', 1, 100_000),
      runningPerClient: integer(env, 'JOB_RUNNING_PER_CLIENT', 1, 64),
      resultsPerClient: integer(env, 'JOB_RESULTS_PER_CLIENT', 1, 100_000),
      retentionSeconds: integer(env, 'JOB_RETENTION_SECONDS', 60, 365 * 86400),
      leaseSeconds: integer(env, 'JOB_LEASE_SECONDS', 1, 3600),
    },
    sandboxRetentionSeconds: integer(env, 'SANDBOX_RETENTION_SECONDS', 60, 365 * 86400),
    sandboxStorageBytes: integer(env, 'SANDBOX_STORAGE_BYTES', SANDBOX_STORAGE_MIN_BYTES, 2 ** 40),
    rateLimitMaxClients: integer(env, 'RATE_LIMIT_MAX_CLIENTS', 100, 10_000_000),
    redisUrl: optionalUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    databaseUrl: databaseUrl(env),
    connections: connectionLimits(env),
    mcpAllowedOrigins: originList(env, 'MCP_ALLOWED_ORIGINS'),
    mcpAllowedHosts: hostList(env, 'MCP_ALLOWED_HOSTS'),
    accessLog: boolean(env, 'ACCESS_LOG'),
    allowBuildMismatch: boolean(env, 'ALLOW_BUILD_MISMATCH'),
  };
}

/** A comma-separated list of origins (scheme, host, optional port), each written as its serialized origin. */
function originList(env: Env, variable: EnvVariable): string[] | null {
  const text = effectiveValue(env, variable);
  if (text.trim() === '') return null;
  return text.split(',').map((item) => {
    const trimmed = item.trim();
    try {
      const url = new URL(trimmed);
      if (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        url.origin === trimmed.replace(/\/$/, '').toLowerCase()
      )
        return url.origin;
    } catch {
      // Reported below with the variable's name.
    }
    throw new ConfigError(
      variable,
      trimmed,
      'comma-separated origins such as https://app.example or http://localhost:3000',
    );
  });
}

/** A comma-separated list of host names, without ports, each as a URL spells it (lower case, IPv6 in brackets). */
function hostList(env: Env, variable: EnvVariable): string[] {
  const text = effectiveValue(env, variable);
  if (text.trim() === '') return [];
  return text.split(',').map((item) => {
    const trimmed = item.trim();
    try {
      const url = new URL(`http://${trimmed}`);
      if (url.hostname === trimmed.toLowerCase() && url.port === '' && url.pathname === '/') return url.hostname;
    } catch {
      // Reported below with the variable's name.
    }
    throw new ConfigError(
      variable,
      trimmed,
      'comma-separated host names such as www.example.com or portfolio.internal',
    );
  });
}

function connectionLimits(env: Env): ConnectionLimits {
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 1000, 600_000);
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 1000, 600_000);
  // node refuses a header timeout longer than the request timeout.
  if (requestTimeoutMs < headersTimeoutMs)
    throw new ConfigError(
      'REQUEST_TIMEOUT_MS',
      String(requestTimeoutMs),
      `at least HEADERS_TIMEOUT_MS (${headersTimeoutMs})`,
    );
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    maxConnections: integer(env, 'MAX_CONNECTIONS', 1, 1_000_000),
    maxConnectionsPerClient: integer(env, 'MAX_CONNECTIONS_PER_CLIENT', 1, 1_000_000),
  };
}

function notifyConfig(env: Env): NotifyConfig {
  const webhookUrl = optionalUrl(env, 'NOTIFY_WEBHOOK_URL', ['http:', 'https:']);
  const secret = effectiveValue(env, 'NOTIFY_WEBHOOK_SECRET');
  return {
    webhook: webhookUrl === null ? null : { url: webhookUrl, secret: secret === '' ? null : secret },
    email: emailConfig(env),
    retryBaseMs: integer(env, 'NOTIFY_RETRY_BASE_MS', 1, 3_600_000),
    maxAttempts: integer(env, 'NOTIFY_MAX_ATTEMPTS', 1, 100),
    spamCommand: ownerInboxCommand(env, ['--spam']),
  };
}

/** The exact `npm run inbox` command for this installation (inbox-command.ts), with `options`. */
function ownerInboxCommand(env: Env, options: readonly string[] = []): string {
  const envFile = effectiveValue(env, 'PORTFOLIO_ENV_FILE');
  return inboxCommand(
    {
      envFile: envFile === '' ? null : envFile,
      dataDir: path.resolve(effectiveValue(env, 'DATA_DIR')),
      onSqlite: effectiveValue(env, 'DATABASE_URL') === '',
    },
    undefined,
    options,
  );
}

/** One address: no spaces, angle brackets, commas or quotes (so never a list, never a header of its own). */
const ADDRESS = /^[^\s<>,;"@]+@[^\s<>,;"@]+\.[^\s<>,;"@]+$/;
/** An address with an optional display name: `site@example.com` or `Portfolio <site@example.com>`. */
const NAMED_ADDRESS = /^(?:[^<>\r\n",;]+ )?<([^<>]+)>$/;
const EMAIL_VARIABLES = ['SMTP_URL', 'NOTIFY_EMAIL_TO', 'NOTIFY_EMAIL_FROM'] as const;

/** Email delivery: SMTP_URL, NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM go together, all set or none. */
function emailConfig(env: Env): EmailConfig | null {
  const set = EMAIL_VARIABLES.filter((variable) => effectiveValue(env, variable) !== '');
  if (set.length === 0) return null;
  const missing = EMAIL_VARIABLES.find((variable) => !set.includes(variable));
  if (missing !== undefined)
    throw new ConfigError(
      missing,
      '',
      `a value: ${set.join(' and ')} ${set.length === 1 ? 'is' : 'are'} set, and email delivery needs all of SMTP_URL, NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM (or none)`,
    );
  const smtpUrl = optionalUrl(env, 'SMTP_URL', ['smtp:', 'smtps:'])!;
  const to = effectiveValue(env, 'NOTIFY_EMAIL_TO').trim();
  if (!ADDRESS.test(to)) throw new ConfigError('NOTIFY_EMAIL_TO', to, 'one email address, such as you@example.com');
  const from = effectiveValue(env, 'NOTIFY_EMAIL_FROM').trim();
  const named = NAMED_ADDRESS.exec(from);
  if (!ADDRESS.test(from) && !(named !== null && ADDRESS.test(named[1]!)))
    throw new ConfigError(
      'NOTIFY_EMAIL_FROM',
      from,
      'an email address, optionally with a name: site@example.com or Portfolio <site@example.com>',
    );
  return { smtpUrl, to, from, inboxCommand: ownerInboxCommand(env) };
}
