import { BODY_BYTES_PER_REQUEST, JOB_MAX_ATTEMPTS, SANDBOX_STORAGE_MIN_BYTES } from './fixed-limits.ts';
import { hostSiteUrl, SITE_URL_DEFAULT_SOURCE, SITE_URL_FILE_SOURCE, type SourcedValue } from './site-url.ts';
import { SERVICE_PATHS_TEXT } from './public-urls.ts';
import { loadSite } from './site.ts';
import { hostList, hostName, optionalOrigin, optionalUrl, originList, siteUrl } from './url-kinds.ts';
import {
  boolean,
  folder,
  integer,
  optionalAddress,
  optionalEd25519PublicKey,
  optionalNamedAddress,
  optionalText,
  quota,
  type VariableKind,
} from './variable-kinds.ts';

/** A year, the longest anything is kept. */
const YEAR_SECONDS = 365 * 86400;

/**
 * Every environment variable the service reads, one row each: what its value may be (its kind),
 * which hosts read it, its default and its meaning. loadConfig (env.ts) reads each by its kind,
 * and the configuration table (docs/configuration.md, scripts/config-table.ts) is generated from
 * this list. `baked: true` marks a variable that the build writes into pages and documents
 * (links, quotas, limits); the build records their values and the server refuses a build made
 * with others (functions/config/baked-config.ts).
 */
export const ENV_VARIABLES = {
  PORT: {
    kind: integer(0, 65535),
    hosts: 'node',
    default: '4321',
    meaning: 'TCP port to listen on (0 picks a free port).',
  },
  HOST: { kind: hostName, hosts: 'all', default: '127.0.0.1', meaning: 'Interface to listen on (0.0.0.0 for all).' },
  SITE_URL: {
    kind: siteUrl,
    hosts: 'all',
    baked: true,
    // Read from content/site.json when first asked for, not when this module loads.
    get default() {
      return loadSite().siteUrl;
    },
    /** Unset, the address the build's host announces comes first, then the owner's file (site-url.ts). */
    defaultIn: (env: Record<string, string | undefined>): SourcedValue =>
      hostSiteUrl(env) ?? { value: loadSite().siteUrl, from: SITE_URL_FILE_SOURCE },
    /** Shown as the default instead of the value: a rule, not a constant. */
    defaultFrom: SITE_URL_DEFAULT_SOURCE,
    meaning: `Public base URL used in every absolute link (pages, API, documents). Unset, a build on Netlify, Cloudflare Pages or Vercel takes the address the host gives it, and anywhere else the ${SITE_URL_FILE_SOURCE} (what \`npm run init -- --url\` writes); set, it overrides both, for the build and the server alike (to build one checkout for a staging address, or a custom domain, say). The build records the value it used (dist/build-manifest.json), and a function bundled with the build takes that value when its own environment leaves SITE_URL unset.`,
  },
  API_ORIGIN: {
    kind: optionalOrigin('https://api.ada.example'),
    hosts: 'all',
    baked: true,
    default: '',
    meaning: `Where the dynamic part answers when the pages are served from elsewhere (a static host or CDN): an origin such as https://api.ada.example, without a path; https:// unless its host is loopback. The pages, documents, OpenAPI servers, llms.txt, server cards and skills then name it for ${SERVICE_PATHS_TEXT}, the contact and search forms post there (the contact form's post is then taken only when its Origin, or without one its Referer, is the SITE_URL origin or API_ORIGIN itself: the static form carries no token), and its CORS and MCP Origin checks accept the SITE_URL origin. Empty keeps everything on SITE_URL.`,
  },
  BACKEND_ORIGIN: {
    kind: optionalOrigin('https://backend.ada.example'),
    hosts: 'all',
    baked: true,
    default: '',
    meaning: `Where a static host's proxy rules (_redirects for Netlify, vercel.json for Vercel) send ${SERVICE_PATHS_TEXT} (the /contact and /search pages too, which the service fills in), while the pages and documents name only SITE_URL: an origin such as https://backend.ada.example, without a path; https:// unless its host is loopback; not the SITE_URL origin. The service answers MCP for its host name too (the Host the proxy sends). Set it for the build and the service alike. Not with API_ORIGIN, the other way to the service (the pages name it, and the rules proxy to it). Empty: the rules proxy to API_ORIGIN, or nowhere.`,
  },
  DATA_DIR: {
    kind: folder,
    hosts: 'node',
    default: './data',
    meaning:
      'Folder for the SQLite database (inbox, idempotency records, jobs, test keys) and generated secrets. Unused for state when DATABASE_URL is set.',
  },
  DATABASE_URL: {
    kind: optionalUrl(['postgres:', 'postgresql:']),
    hosts: 'all',
    default: '',
    meaning:
      'If set (postgres:// or postgresql://, with TLS options as the pg driver reads them, e.g. ?sslmode=require), all durable state (inbox, idempotency records, jobs, test keys, signing secrets) lives in PostgreSQL, shared by every instance using it, and so do the contact, key-creation and form-token quotas when REDIS_URL is empty or Redis is down (the read quota never: a read waits for no database). Empty keeps it in SQLite under DATA_DIR. Files it names (sslkey, sslcert, sslrootcert) must be readable at start; wherever the URL is shown, its password and every parameter whose name suggests a secret (sslpassword, sslkey, ...) read ***.',
  },
  PORTFOLIO_ENV_FILE: {
    kind: optionalText('a file path'),
    hosts: 'all',
    default: '',
    meaning:
      "The environment file this service's settings come from (its unit's EnvironmentFile=). The service does not read it; each notification mail names it in the command that opens the inbox (npm run inbox -- --env-file <file>), which reads the same settings from it.",
  },
  TRUST_PROXY: {
    kind: integer(0, 10),
    hosts: 'all',
    default: '0',
    meaning: 'How many reverse proxies in front of the service to trust for X-Forwarded-For (0 ignores the header).',
  },
  READ_RATE_LIMIT: {
    kind: quota,
    hosts: 'all',
    baked: true,
    default: '120/60',
    meaning: `Request quota per client IP (per /64 for IPv6), as <count>/<seconds>: every API request and MCP message counts one, a batch one per operation, and a batch or MCP body over ${BODY_BYTES_PER_REQUEST / 1024} KiB one per started ${BODY_BYTES_PER_REQUEST / 1024} KiB.`,
  },
  CONTACT_RATE_LIMIT: {
    kind: quota,
    hosts: 'all',
    baked: true,
    default: '5/600',
    meaning: 'Contact messages accepted per client IP, as <count>/<seconds>.',
  },
  CONTACT_MIN_FILL_SECONDS: {
    kind: integer(0, 3600),
    hosts: 'all',
    default: '3',
    meaning:
      "A post of the contact page sent sooner than this after the page was served is kept as spam (never notified; npm run inbox -- --spam). 0 turns the minimum off; the page's signed token is still required, unless API_ORIGIN is set: the page is then a static file, which carries none.",
  },
  KEYS_RATE_LIMIT: {
    kind: quota,
    hosts: 'all',
    baked: true,
    default: '10/3600',
    meaning: 'Test keys created per client IP, as <count>/<seconds>.',
  },
  TEST_KEY_READ_RATE_LIMIT: {
    kind: quota,
    hosts: 'all',
    baked: true,
    default: '1200/60',
    meaning: 'Request quota per test key (the test tier).',
  },
  TEST_KEY_CONTACT_RATE_LIMIT: {
    kind: quota,
    hosts: 'all',
    baked: true,
    default: '50/600',
    meaning: 'Contact quota per test key (the test tier; messages go to the sandbox).',
  },
  TEST_KEY_TTL_SECONDS: {
    kind: integer(60, YEAR_SECONDS),
    hosts: 'all',
    baked: true,
    default: '2592000',
    meaning: 'How long a test key lives (default 30 days).',
  },
  TOKEN_TTL_SECONDS: {
    kind: integer(60, 86400),
    hosts: 'all',
    baked: true,
    default: '3600',
    meaning: 'Lifetime of OAuth access tokens from POST /oauth/token.',
  },
  IDEMPOTENCY_TTL_SECONDS: {
    kind: integer(60, YEAR_SECONDS),
    hosts: 'all',
    baked: true,
    default: '86400',
    meaning: 'How long an Idempotency-Key and its answer are kept (at least 60).',
  },
  NOTIFY_WEBHOOK_URL: {
    kind: optionalUrl(['http:', 'https:']),
    hosts: 'all',
    default: '',
    meaning:
      'If set, each new live contact message is POSTed to this URL as JSON, with retries (payload and signature: /developers/webhooks). Only messages stored while it is set are sent.',
  },
  NOTIFY_WEBHOOK_SECRET: {
    kind: optionalText('any text'),
    hosts: 'all',
    default: '',
    meaning:
      'If set, each webhook post carries a Portfolio-Signature header: an HMAC-SHA256 of its timestamp and body with this secret (/developers/webhooks). Empty sends unsigned posts.',
  },
  SMTP_URL: {
    kind: optionalUrl(['smtp:', 'smtps:']),
    hosts: 'all',
    default: '',
    meaning:
      'If set (smtp:// or smtps://, with the account in the URL: smtps://user:password@smtp.example.com:465), each new live contact message is mailed to NOTIFY_EMAIL_TO, with retries. Needs NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM. A relay on the same machine needs no account: smtp://localhost:25/?ignoreTLS=true (a local Postfix offers STARTTLS with a self-signed certificate, which would fail).',
  },
  NOTIFY_EMAIL_TO: {
    kind: optionalAddress,
    hosts: 'all',
    default: '',
    meaning: 'Where contact messages are mailed (one address); set with SMTP_URL.',
  },
  NOTIFY_EMAIL_FROM: {
    kind: optionalNamedAddress,
    hosts: 'all',
    default: '',
    meaning:
      'The From of those mails: an address your SMTP account may send as, optionally with a name (Portfolio <site@example.com>); set with SMTP_URL. Reply-To is the visitor.',
  },
  NOTIFY_RETRY_BASE_MS: {
    kind: integer(1, 3_600_000),
    hosts: 'all',
    default: '1000',
    meaning: 'First delivery retry delay in milliseconds (webhook and email); it doubles per attempt, up to an hour.',
  },
  NOTIFY_MAX_ATTEMPTS: {
    kind: integer(1, 100),
    hosts: 'all',
    default: '10',
    meaning: 'Delivery attempts per message and channel before it is marked failed (npm run inbox -- --redeliver).',
  },
  BATCH_MAX_OPERATIONS: {
    kind: integer(1, 1000),
    hosts: 'all',
    baked: true,
    default: '25',
    meaning: 'Most operations one POST /api/v1/batch may carry.',
  },
  JOB_CONCURRENCY: {
    kind: integer(1, 64),
    hosts: 'all',
    baked: true,
    default: '2',
    meaning: 'Asynchronous jobs that run at the same time.',
  },
  JOB_QUEUE_LIMIT: {
    kind: integer(1, 100_000),
    hosts: 'all',
    baked: true,
    default: '100',
    meaning:
      'Jobs that may wait, counted apart for live and sandbox jobs so the sandbox never fills the live queue; beyond it createJob answers 503 queue_full with Retry-After.',
  },
  JOB_QUEUE_PER_CLIENT: {
    kind: integer(1, 100_000),
    hosts: 'all',
    baked: true,
    default: '10',
    meaning:
      'Jobs one client (its IP, or its test key) may have waiting; beyond it createJob answers 429 too_many_jobs with Retry-After.',
  },
  JOB_RUNNING_PER_CLIENT: {
    kind: integer(1, 64),
    hosts: 'all',
    baked: true,
    default: '1',
    meaning:
      'Jobs of one client that run at the same time, so no client holds every slot while others wait; live jobs start before sandbox ones.',
  },
  JOB_RESULTS_PER_CLIENT: {
    kind: integer(1, 100_000),
    hosts: 'all',
    baked: true,
    default: '20',
    meaning:
      "Finished jobs (with their results) kept per client; when a job finishes, the client's oldest beyond this many are deleted.",
  },
  JOB_LEASE_SECONDS: {
    kind: integer(1, 3600),
    hosts: 'all',
    default: '30',
    meaning: `How long a running job stays claimed by its instance without a heartbeat (sent every third of it). A job whose instance died is run again by another after this, at most ${JOB_MAX_ATTEMPTS} runs in all, then failed as interrupted.`,
  },
  JOB_RETENTION_SECONDS: {
    kind: integer(60, YEAR_SECONDS),
    hosts: 'all',
    baked: true,
    default: '86400',
    meaning: 'How long a job and its result are kept (at least 60).',
  },
  SANDBOX_RETENTION_SECONDS: {
    kind: integer(60, YEAR_SECONDS),
    hosts: 'all',
    baked: true,
    default: '604800',
    meaning:
      'How long sandbox contact messages are kept (default 7 days, at least 60); older ones are purged at start and every 10 minutes.',
  },
  SANDBOX_STORAGE_BYTES: {
    kind: integer(SANDBOX_STORAGE_MIN_BYTES, 2 ** 40),
    hosts: 'all',
    baked: true,
    default: '1048576',
    meaning: `Most sandbox contact message text (name, email and message in UTF-8 bytes) kept per client IP (per /64 for IPv6) and, apart, per test key (default 1 MiB, at least ${SANDBOX_STORAGE_MIN_BYTES}). A new sandbox message deletes the oldest ones of its client and of its key that would keep more.`,
  },
  REDIS_URL: {
    kind: optionalUrl(['redis:', 'rediss:']),
    hosts: 'all',
    default: '',
    meaning:
      'If set (redis:// or rediss://; Valkey works too), every quota is counted in Redis, shared by all instances using it, the read quota (every API request and MCP message) included. While Redis is unreachable, the contact, key-creation and form-token quotas are counted in PostgreSQL when DATABASE_URL is set, else per instance, and the read quota per instance. Empty counts the read quota in this process, and the others in PostgreSQL with DATABASE_URL, else in this process.',
  },
  RATE_LIMIT_MAX_CLIENTS: {
    kind: integer(100, 10_000_000),
    hosts: 'all',
    default: '100000',
    meaning:
      'How many clients each quota counted in this process tracks at once, least recently seen forgotten first (bounds its memory; nothing is allocated before a client is counted).',
  },
  HEADERS_TIMEOUT_MS: {
    kind: integer(1000, 600_000),
    hosts: 'node',
    default: '10000',
    meaning: "Most time a client may take to send a request's headers; then it gets 408 and the connection is closed.",
  },
  REQUEST_TIMEOUT_MS: {
    kind: integer(1000, 600_000),
    hosts: 'all',
    default: '30000',
    meaning:
      'Most time a client may take to send a whole request, body included (bodies are at most 64 KiB); then 408 and the connection is closed. At least HEADERS_TIMEOUT_MS.',
  },
  MAX_CONNECTIONS: {
    kind: integer(1, 1_000_000),
    hosts: 'node',
    default: '1000',
    meaning:
      'Open connections the server holds at once. At the cap a new connection takes the place of the one idle longest (no request in progress); only when every connection is serving a request is the new one closed as soon as it opens.',
  },
  MAX_CONNECTIONS_PER_CLIENT: {
    kind: integer(1, 1_000_000),
    hosts: 'node',
    default: '100',
    meaning:
      'Open connections one client may hold at once (an IPv4 address, or an IPv6 /64 as for quotas); one more is closed as soon as it opens. Not applied when TRUST_PROXY is set: every connection then comes from the proxy, which caps its own clients.',
  },
  MCP_ALLOWED_ORIGINS: {
    kind: originList,
    hosts: 'all',
    baked: true,
    default: '',
    meaning:
      'Comma-separated origins whose browser pages may call the MCP servers. Empty allows the SITE_URL origin and loopback origins (localhost, 127.0.0.1, [::1], any port). Requests without an Origin header are always served.',
  },
  MCP_ALLOWED_HOSTS: {
    kind: hostList,
    hosts: 'all',
    default: '',
    meaning:
      'Comma-separated host names (no port) the MCP servers answer for besides the SITE_URL, API_ORIGIN and BACKEND_ORIGIN hosts and their sandbox. names, and besides localhost, 127.0.0.1 and [::1] when HOST is a loopback address: a second name of the site, or the name a container is reached by. A request whose Host names another is refused with 403 (DNS rebinding protection). Behind a proxy, the Host it passes on counts (nginx: proxy_set_header Host $host).',
  },
  MCP_REGISTRY_PUBLIC_KEY: {
    kind: optionalEd25519PublicKey,
    hosts: 'all',
    baked: true,
    default: '',
    meaning:
      'The public half of the key the owner publishes to the MCP Registry with (`npm run registry -- --new-key` makes a pair). Set, the build publishes /.well-known/mcp-registry-auth (`v=MCPv1; k=ed25519; p=<this key>`), the record the registry reads to verify the SITE_URL domain; empty, it publishes none. Only the build reads it; the private half never leaves the owner (`mcp-publisher login http`).',
  },
  CRON_SECRET: {
    kind: optionalText('any text (a random one, at least 16 characters)'),
    hosts: 'vercel',
    default: '',
    meaning:
      'The secret Vercel sends its cron call with (Authorization: Bearer, as Vercel Cron Jobs do when the project sets CRON_SECRET); the cron target (/api/portfolio-cron) runs the scheduled pass only for a call that presents it. Empty, it runs for nobody: every call is refused with 403 cron_disabled, and each instance logs the first. Netlify and Cloudflare call their scheduled functions themselves and need none.',
  },
  ACCESS_LOG: {
    kind: boolean,
    hosts: 'all',
    default: 'true',
    meaning: 'Write one JSON access-log line per request to stdout (true or false).',
  },
  ALLOW_BUILD_MISMATCH: {
    kind: boolean,
    hosts: 'all',
    default: 'false',
    meaning:
      'Serve a build made with other values of the variables marked "baked" (its pages and documents then publish values the server does not use). For tests of enforcement only; otherwise the server refuses such a build.',
  },
} as const satisfies Record<string, EnvVariableDefinition>;

/**
 * Where a variable is read. `all`: wherever the service runs, the Node server (`npm start`) and
 * a function host alike (functions/hosts/). `node`: only by the Node server and the
 * commands beside it, for what only a long-lived process has (a socket to listen on, its
 * connections, a data folder); a function host takes no notice of it. `vercel`: only by Vercel's
 * cron target (functions/hosts/vercel/cron.ts), for what only that host has.
 */
export type Hosts = 'all' | 'node' | 'vercel';

/**
 * One variable: its kind, where it is read, its default, what it does, whether the build bakes
 * it; for a default that depends on the environment, that rule (`defaultIn`, which wins over
 * `default`) and how the configuration table words it (`defaultFrom`).
 */
export interface EnvVariableDefinition {
  kind: VariableKind<unknown>;
  hosts: Hosts;
  default: string;
  meaning: string;
  baked?: true;
  defaultIn?: (env: Record<string, string | undefined>) => SourcedValue;
  defaultFrom?: string;
}

/** The name of a variable the service reads. */
export type EnvVariable = keyof typeof ENV_VARIABLES;

/** A variable's definition, its optional members typed for every variable. */
export function envVariable(variable: EnvVariable): EnvVariableDefinition {
  return ENV_VARIABLES[variable];
}
