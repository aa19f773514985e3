import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../functions/config/env.ts';
import { ENV_VARIABLES, envVariable, type EnvVariable } from '../../functions/config/env-variables.ts';
import { readVariable } from '../../functions/config/read-variable.ts';
import { expected } from '../../functions/config/variable-kinds.ts';
import { configTable } from '../../scripts/config-table.ts';

const VARIABLES = Object.keys(ENV_VARIABLES) as EnvVariable[];

/** Email delivery's variables, valid only together: a bad one is tried with the other two set. */
const EMAIL = {
  SMTP_URL: 'smtp://localhost:25',
  NOTIFY_EMAIL_TO: 'me@example.com',
  NOTIFY_EMAIL_FROM: 'site@example.com',
};

/** A value its kind refuses, for every variable whose kind refuses any; shown in the error as it is (a URL as redact-url.ts writes it). */
const BAD_VALUES: Partial<Record<EnvVariable, string>> = {
  PORT: '70000',
  HOST: 'bad host!',
  SITE_URL: 'ada.example',
  API_ORIGIN: 'http://api.ada.example',
  BACKEND_ORIGIN: 'https://backend.ada.example/api',
  DATABASE_URL: 'mysql://db.example/portfolio',
  TRUST_PROXY: 'yes',
  READ_RATE_LIMIT: '100',
  CONTACT_RATE_LIMIT: '0/60',
  CONTACT_MIN_FILL_SECONDS: '3601',
  KEYS_RATE_LIMIT: '10/',
  TEST_KEY_READ_RATE_LIMIT: '1.5/60',
  TEST_KEY_CONTACT_RATE_LIMIT: 'ten/60',
  TEST_KEY_TTL_SECONDS: '59',
  TOKEN_TTL_SECONDS: '86401',
  IDEMPOTENCY_TTL_SECONDS: '-1',
  NOTIFY_WEBHOOK_URL: 'ftp://hooks.example/inbox',
  SMTP_URL: 'https://smtp.example.com/',
  NOTIFY_EMAIL_TO: 'me',
  NOTIFY_EMAIL_FROM: 'Portfolio site@example.com',
  NOTIFY_RETRY_BASE_MS: '0',
  NOTIFY_MAX_ATTEMPTS: '101',
  BATCH_MAX_OPERATIONS: '1e3',
  JOB_CONCURRENCY: '65',
  JOB_QUEUE_LIMIT: 'many',
  JOB_QUEUE_PER_CLIENT: '0',
  JOB_RUNNING_PER_CLIENT: '0',
  JOB_RESULTS_PER_CLIENT: '100001',
  JOB_LEASE_SECONDS: '3601',
  JOB_RETENTION_SECONDS: '1',
  SANDBOX_RETENTION_SECONDS: '59',
  SANDBOX_STORAGE_BYTES: '1024',
  REDIS_URL: 'http://cache.example/',
  RATE_LIMIT_MAX_CLIENTS: '5',
  HEADERS_TIMEOUT_MS: '999',
  REQUEST_TIMEOUT_MS: '600001',
  MAX_CONNECTIONS: '0',
  MAX_CONNECTIONS_PER_CLIENT: 'all',
  MCP_ALLOWED_ORIGINS: 'app.example',
  MCP_ALLOWED_HOSTS: 'www.ada.example:443',
  MCP_REGISTRY_PUBLIC_KEY: 'not-base64-and-too-short',
  ACCESS_LOG: 'maybe',
  ALLOW_BUILD_MISMATCH: 'yes',
};

/** Read by the build alone (src/pages/.well-known/[registryAuth].ts), so never by loadConfig: refused as the build reads it. */
const BUILD_ONLY: ReadonlySet<EnvVariable> = new Set(['MCP_REGISTRY_PUBLIC_KEY']);

/** The variables whose kind takes any text: a path, or a secret. */
const ANY_TEXT: EnvVariable[] = ['DATA_DIR', 'PORTFOLIO_ENV_FILE', 'NOTIFY_WEBHOOK_SECRET', 'CRON_SECRET'];

describe('the variables, one row each', () => {
  it.each(VARIABLES)(
    '%s: its default is a value its own kind accepts, and what loadConfig reads when unset',
    (name) => {
      const { kind, default: fallback } = envVariable(name);
      const reading = kind.read(fallback);
      expect(reading).not.toHaveProperty('refused');
      expect(readVariable({}, name)).toEqual('value' in reading ? reading.value : undefined);
    },
  );

  it('tries a refused value of every variable, except those that take any text', () => {
    expect([...Object.keys(BAD_VALUES), ...ANY_TEXT].toSorted()).toEqual(VARIABLES.toSorted());
    for (const name of ANY_TEXT)
      expect(envVariable(name).kind.read(' any "text" at all ')).not.toHaveProperty('refused');
  });

  it.each(Object.entries(BAD_VALUES))(
    'a bad %s (%j) stops loadConfig with one line: the variable, the value, what its kind accepts',
    (name, value) => {
      const variable = name as EnvVariable;
      const env = variable in EMAIL ? { ...EMAIL, [variable]: value } : { [variable]: value };
      const accepts = expected(envVariable(variable).kind);
      const read = BUILD_ONLY.has(variable) ? () => readVariable(env, variable) : () => loadConfig(env);
      expect(read).toThrow(ConfigError);
      expect(read).toThrow(`Invalid ${variable}=${JSON.stringify(value)}: expected ${accepts}.`);
      expect(accepts).not.toMatch(/[`\n]/);
    },
  );

  it('marks only what a long-lived process has as read by the Node server alone', () => {
    expect(VARIABLES.filter((name) => envVariable(name).hosts === 'node')).toEqual([
      'PORT',
      'DATA_DIR',
      'HEADERS_TIMEOUT_MS',
      'MAX_CONNECTIONS',
      'MAX_CONNECTIONS_PER_CLIENT',
    ]);
  });
});

describe('the configuration reference (docs/configuration.md)', () => {
  const rows = configTable().split('\n').slice(2);

  it('lists every variable once, in the order of the list', () => {
    expect(rows.map((row) => /^\| `([A-Z_]+)` \|/.exec(row)?.[1])).toEqual(VARIABLES);
  });

  it.each(VARIABLES)('shows the valid values of %s as its kind words them', (name) => {
    const { kind, hosts } = envVariable(name);
    const row = rows.find((line) => line.startsWith(`| \`${name}\` |`))!;
    expect(row.split(' | ')[2]).toBe(kind.accepts);
    expect(row.endsWith(' Read by the Node server only. |')).toBe(hosts === 'node');
  });

  it('words a range, a quota, a URL and a switch as a reader expects them', () => {
    const accepts = (name: EnvVariable) => envVariable(name).kind.accepts;
    expect(accepts('PORT')).toBe('an integer from 0 to 65535');
    expect(accepts('READ_RATE_LIMIT')).toBe('`<count>/<seconds>` with both at least 1, e.g. `120/60`');
    expect(accepts('REDIS_URL')).toBe('an absolute `redis://` or `rediss://` URL, or empty');
    expect(accepts('ACCESS_LOG')).toBe('`true` or `false`');
  });
});
