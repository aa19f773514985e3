import path from 'node:path';
import { parseRateQuota, type RateQuota } from './rate-quota.ts';
import { loadSite } from './site.ts';

/**
 * Every environment variable the service reads, with its default and meaning.
 * The README's configuration table and the developer pages are generated from this list.
 * `baked: true` marks a variable that the build writes into pages and documents (links, quotas,
 * limits); the build records their values and the server refuses a build made with others
 * (functions/config/baked-config.ts).
 */
export const ENV_VARIABLES = {
  PORT: { default: '4321', meaning: 'TCP port to listen on (0 picks a free port).' },
  HOST: { default: '127.0.0.1', meaning: 'Interface to listen on (0.0.0.0 for all).' },
  SITE_URL: {
    baked: true,
    // Read from content/site.json when first asked for, not when this module loads.
    get default() {
      return loadSite().siteUrl;
    },
    meaning: 'Public base URL used in every absolute link (pages, API, documents).',
  },
  DATA_DIR: {
    default: './data',
    meaning: 'Folder for the SQLite database (inbox, idempotency records) and generated secrets.',
  },
  TRUST_PROXY: {
    default: '0',
    meaning: 'How many reverse proxies in front of the service to trust for X-Forwarded-For (0 ignores the header).',
  },
  READ_RATE_LIMIT: {
    baked: true,
    default: '120/60',
    meaning:
      'Request quota per client IP (per /64 for IPv6), as <count>/<seconds>: every API request and MCP message counts one, a batch one per operation.',
  },
  CONTACT_RATE_LIMIT: {
    baked: true,
    default: '5/600',
    meaning: 'Contact messages accepted per client IP, as <count>/<seconds>.',
  },
  KEYS_RATE_LIMIT: {
    baked: true,
    default: '10/3600',
    meaning: 'Test keys created per client IP, as <count>/<seconds>.',
  },
  TEST_KEY_READ_RATE_LIMIT: { baked: true, default: '1200/60', meaning: 'Request quota per test key (the test tier).' },
  TEST_KEY_CONTACT_RATE_LIMIT: {
    baked: true,
    default: '50/600',
    meaning: 'Contact quota per test key (the test tier; messages go to the sandbox).',
  },
  TEST_KEY_TTL_SECONDS: { baked: true, default: '2592000', meaning: 'How long a test key lives (default 30 days).' },
  TOKEN_TTL_SECONDS: {
    baked: true,
    default: '3600',
    meaning: 'Lifetime of OAuth access tokens from POST /oauth/token.',
  },
  IDEMPOTENCY_TTL_SECONDS: {
    baked: true,
    default: '86400',
    meaning: 'How long an Idempotency-Key and its answer are kept (at least 60).',
  },
  NOTIFY_WEBHOOK_URL: {
    default: '',
    meaning: 'If set, each new contact message is POSTed to this URL as JSON (with retries).',
  },
  NOTIFY_RETRY_BASE_MS: {
    default: '1000',
    meaning: 'First webhook retry delay in milliseconds; it doubles per attempt, up to an hour.',
  },
  NOTIFY_MAX_ATTEMPTS: { default: '10', meaning: 'Webhook attempts per message before it is marked failed.' },
  BATCH_MAX_OPERATIONS: { baked: true, default: '25', meaning: 'Most operations one POST /api/v1/batch may carry.' },
  JOB_CONCURRENCY: { baked: true, default: '2', meaning: 'Asynchronous jobs that run at the same time.' },
  JOB_QUEUE_LIMIT: {
    baked: true,
    default: '100',
    meaning:
      'Jobs that may wait, counted apart for live and sandbox jobs so the sandbox never fills the live queue; beyond it createJob answers 503 queue_full with Retry-After.',
  },
  JOB_QUEUE_PER_CLIENT: {
    baked: true,
    default: '10',
    meaning:
      'Jobs one client (its IP, or its test key) may have waiting; beyond it createJob answers 429 too_many_jobs with Retry-After.',
  },
  JOB_RUNNING_PER_CLIENT: {
    baked: true,
    default: '1',
    meaning:
      'Jobs of one client that run at the same time, so no client holds every slot while others wait; live jobs start before sandbox ones.',
  },
  JOB_RESULTS_PER_CLIENT: {
    baked: true,
    default: '20',
    meaning:
      "Finished jobs (with their results) kept per client; when a job finishes, the client's oldest beyond this many are deleted.",
  },
  JOB_RETENTION_SECONDS: {
    baked: true,
    default: '86400',
    meaning: 'How long a job and its result are kept (at least 60).',
  },
  SANDBOX_RETENTION_SECONDS: {
    baked: true,
    default: '604800',
    meaning:
      'How long sandbox contact messages are kept (default 7 days, at least 60); older ones are purged at start and every 10 minutes.',
  },
  REDIS_URL: {
    default: '',
    meaning:
      'If set (redis:// or rediss://; Valkey works too), every quota is counted in Redis, shared by all instances using it. While Redis is unreachable each instance counts on its own. Empty counts in this process.',
  },
  RATE_LIMIT_MAX_CLIENTS: {
    default: '100000',
    meaning: 'How many client IPs the rate limiter tracks at once (bounds its memory).',
  },
  HEADERS_TIMEOUT_MS: {
    default: '10000',
    meaning: "Most time a client may take to send a request's headers; then it gets 408 and the connection is closed.",
  },
  REQUEST_TIMEOUT_MS: {
    default: '30000',
    meaning:
      'Most time a client may take to send a whole request, body included (bodies are at most 64 KiB); then 408 and the connection is closed. At least HEADERS_TIMEOUT_MS.',
  },
  MAX_CONNECTIONS: {
    default: '1000',
    meaning: 'Open connections the server holds at once; one more is closed as soon as it opens.',
  },
  MAX_CONNECTIONS_PER_CLIENT: {
    default: '100',
    meaning:
      'Open connections one client IP may hold at once; one more is closed as soon as it opens. Not applied when TRUST_PROXY is set: every connection then comes from the proxy, which caps its own clients.',
  },
  MCP_ALLOWED_ORIGINS: {
    baked: true,
    default: '',
    meaning:
      'Comma-separated origins whose browser pages may call the MCP servers. Empty allows the SITE_URL origin and loopback origins (localhost, 127.0.0.1, [::1], any port). Requests without an Origin header are always served.',
  },
  ACCESS_LOG: { default: 'true', meaning: 'Write one JSON access-log line per request to stdout (true or false).' },
  ALLOW_BUILD_MISMATCH: {
    default: 'false',
    meaning:
      'Serve a build made with other values of the variables marked "baked" (its pages and documents then publish values the server does not use). For tests of enforcement only; otherwise the server refuses such a build.',
  },
} as const satisfies Record<string, { default: string; meaning: string; baked?: true }>;

export type EnvVariable = keyof typeof ENV_VARIABLES;

export interface Config {
  port: number;
  host: string;
  /** Base URL without a trailing slash, e.g. `https://ada.example`. */
  siteUrl: string;
  dataDir: string;
  trustProxy: number;
  readRateLimit: RateQuota;
  contactRateLimit: RateQuota;
  keysRateLimit: RateQuota;
  testKeyReadRateLimit: RateQuota;
  testKeyContactRateLimit: RateQuota;
  testKeyTtlSeconds: number;
  tokenTtlSeconds: number;
  idempotencyTtlSeconds: number;
  notify: { webhookUrl: string; retryBaseMs: number; maxAttempts: number } | null;
  jobs: JobLimits;
  /** How long sandbox contact messages are kept. */
  sandboxRetentionSeconds: number;
  batchMaxOperations: number;
  rateLimitMaxClients: number;
  /** Where quotas are counted when several instances share them; null counts in this process. */
  redisUrl: string | null;
  connections: ConnectionLimits;
  /** Origins allowed to call the MCP servers; null is the default (the site's origin and loopback). */
  mcpAllowedOrigins: string[] | null;
  accessLog: boolean;
  /** Serve a build whose baked values differ from this configuration (tests of enforcement only). */
  allowBuildMismatch: boolean;
}

/** The job queue's capacity and what one client may take of it (see ENV_VARIABLES for each meaning). */
export interface JobLimits {
  concurrency: number;
  queueLimit: number;
  queuePerClient: number;
  runningPerClient: number;
  resultsPerClient: number;
  retentionSeconds: number;
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
  return read(env, variable);
}

function read(env: Env, variable: EnvVariable): string {
  const value = env[variable];
  return value === undefined || value === '' ? ENV_VARIABLES[variable].default : value;
}

function integer(env: Env, variable: EnvVariable, min: number, max: number): number {
  const text = read(env, variable);
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new ConfigError(variable, text, `an integer from ${min} to ${max}`);
  }
  return value;
}

function quota(env: Env, variable: EnvVariable): RateQuota {
  const text = read(env, variable);
  const parsed = parseRateQuota(text);
  if (!parsed) throw new ConfigError(variable, text, '<count>/<seconds> with both at least 1, e.g. 120/60');
  return parsed;
}

function boolean(env: Env, variable: EnvVariable): boolean {
  const text = read(env, variable).toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw new ConfigError(variable, text, 'true or false');
}

function siteUrl(env: Env): string {
  const text = read(env, 'SITE_URL');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError('SITE_URL', text, 'an absolute http:// or https:// URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
    throw new ConfigError(
      'SITE_URL',
      text,
      'an absolute http:// or https:// URL without query, fragment or credentials',
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** An absolute URL with one of `protocols` (e.g. `['http:', 'https:']`), or null when empty. */
function optionalUrl(env: Env, variable: EnvVariable, protocols: readonly string[]): string | null {
  const text = read(env, variable);
  if (text === '') return null;
  try {
    const url = new URL(text);
    if (protocols.includes(url.protocol)) return url.href;
  } catch {
    // Reported below with the variable's name.
  }
  const schemes = protocols.map((protocol) => `${protocol}//`).join(' or ');
  throw new ConfigError(variable, text.replace(/\/\/[^@/]*@/, '//***@'), `an absolute ${schemes} URL, or empty`);
}

function host(env: Env): string {
  const text = read(env, 'HOST');
  if (!/^[A-Za-z0-9.:\-[\]]{1,253}$/.test(text)) throw new ConfigError('HOST', text, 'a host name or IP address');
  return text;
}

/** Reads and validates the whole configuration; throws a ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  return {
    port: integer(env, 'PORT', 0, 65535),
    host: host(env),
    siteUrl: siteUrl(env),
    dataDir: path.resolve(read(env, 'DATA_DIR')),
    trustProxy: integer(env, 'TRUST_PROXY', 0, 10),
    readRateLimit: quota(env, 'READ_RATE_LIMIT'),
    contactRateLimit: quota(env, 'CONTACT_RATE_LIMIT'),
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
    },
    sandboxRetentionSeconds: integer(env, 'SANDBOX_RETENTION_SECONDS', 60, 365 * 86400),
    rateLimitMaxClients: integer(env, 'RATE_LIMIT_MAX_CLIENTS', 100, 10_000_000),
    redisUrl: optionalUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    connections: connectionLimits(env),
    mcpAllowedOrigins: originList(env, 'MCP_ALLOWED_ORIGINS'),
    accessLog: boolean(env, 'ACCESS_LOG'),
    allowBuildMismatch: boolean(env, 'ALLOW_BUILD_MISMATCH'),
  };
}

/** A comma-separated list of origins (scheme, host, optional port), each written as its serialized origin. */
function originList(env: Env, variable: EnvVariable): string[] | null {
  const text = read(env, variable);
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

function notifyConfig(env: Env): Config['notify'] {
  const webhookUrl = optionalUrl(env, 'NOTIFY_WEBHOOK_URL', ['http:', 'https:']);
  const retryBaseMs = integer(env, 'NOTIFY_RETRY_BASE_MS', 1, 3_600_000);
  const maxAttempts = integer(env, 'NOTIFY_MAX_ATTEMPTS', 1, 100);
  return webhookUrl === null ? null : { webhookUrl, retryBaseMs, maxAttempts };
}
