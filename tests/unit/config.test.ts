import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../functions/config/env.ts';
import { ENV_VARIABLES } from '../../functions/config/env-variables.ts';
import { parseRateQuota } from '../../functions/config/rate-quota.ts';
import { SITE_URL_RULE, siteBaseUrl } from '../../functions/config/site-url.ts';
import { loadSite, parseSite } from '../../functions/config/site.ts';
import { configTable } from '../../scripts/config-table.ts';
import { redactUrl } from '../../functions/config/redact-url.ts';

describe('parseRateQuota', () => {
  it('reads <count>/<seconds>', () => {
    expect(parseRateQuota('120/60')).toEqual({ count: 120, seconds: 60 });
    expect(parseRateQuota(' 5/600 ')).toEqual({ count: 5, seconds: 600 });
  });

  it.each(['', '120', '120/', '/60', '0/60', '10/0', '-1/60', '1.5/60', '10/60/2', 'ten/60'])('refuses %j', (text) => {
    expect(parseRateQuota(text)).toBeNull();
  });
});

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(4321);
    expect(config.host).toBe(ENV_VARIABLES.HOST.default);
    expect(config.trustProxy).toBe(0);
    expect(config.readRateLimit).toEqual({ count: 120, seconds: 60 });
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.accessLog).toBe(true);
    expect(config.connections).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      maxConnections: 1000,
      maxConnectionsPerClient: 100,
    });
  });

  it('refuses a request timeout shorter than the header timeout', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '10000' })).toThrow(
      /^Invalid REQUEST_TIMEOUT_MS=.*at least HEADERS_TIMEOUT_MS/,
    );
  });

  it('reads MCP_ALLOWED_HOSTS as host names in lower case, none by default', () => {
    expect(loadConfig({}).mcpAllowedHosts).toEqual([]);
    expect(loadConfig({ MCP_ALLOWED_HOSTS: ' www.Ada.example , [::2],10.0.0.5' }).mcpAllowedHosts).toEqual([
      'www.ada.example',
      '[::2]',
      '10.0.0.5',
    ]);
  });

  it('drops a trailing slash from SITE_URL', () => {
    expect(loadConfig({ SITE_URL: 'https://ada.example/' }).siteUrl).toBe('https://ada.example');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['SITE_URL', 'not a url'],
    ['SITE_URL', 'ftp://ada.example'],
    ['SITE_URL', 'https://ada.example/?q=1'],
    ['TRUST_PROXY', 'yes'],
    ['READ_RATE_LIMIT', '100'],
    ['RATE_LIMIT_MAX_CLIENTS', '5'],
    ['ACCESS_LOG', 'maybe'],
    ['HOST', 'bad host!'],
    ['HEADERS_TIMEOUT_MS', '0'],
    ['MAX_CONNECTIONS', 'many'],
    ['MAX_CONNECTIONS_PER_CLIENT', '0'],
    ['MCP_ALLOWED_HOSTS', 'www.ada.example:443'],
    ['MCP_ALLOWED_HOSTS', 'https://www.ada.example'],
    ['MCP_ALLOWED_HOSTS', 'ada.example,bad host'],
  ])('a bad %s (%j) throws an error naming it', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`^Invalid ${variable}=`));
  });
});

describe('BACKEND_ORIGIN, where the static hosts proxy the dynamic paths', () => {
  const SITE = { SITE_URL: 'https://ada.example' };

  it('is empty by default, and read as an origin like API_ORIGIN: https, or http on a loopback host', () => {
    expect(loadConfig(SITE).backendOrigin).toBeNull();
    expect(loadConfig({ ...SITE, BACKEND_ORIGIN: 'https://backend.ada.example/' }).backendOrigin).toBe(
      'https://backend.ada.example',
    );
    expect(loadConfig({ ...SITE, BACKEND_ORIGIN: 'http://127.0.0.1:8787' }).backendOrigin).toBe(
      'http://127.0.0.1:8787',
    );
    // The pages keep naming the site: nothing of the API origin is set.
    expect(loadConfig({ ...SITE, BACKEND_ORIGIN: 'https://backend.ada.example' }).apiOrigin).toBeNull();
  });

  it.each([
    ['plain http on a public host', 'http://backend.ada.example'],
    ['a path', 'https://backend.ada.example/api'],
    ['credentials', 'https://user:pw@backend.ada.example'],
    ['no URL', 'backend.ada.example'],
    ["the site's own origin (a proxy to itself)", 'https://ada.example'],
  ])('refuses %s, naming the variable', (_what, value) => {
    expect(() => loadConfig({ ...SITE, BACKEND_ORIGIN: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...SITE, BACKEND_ORIGIN: value })).toThrow(/^Invalid BACKEND_ORIGIN=/);
  });

  it('refuses it beside API_ORIGIN, in one line that names both', () => {
    const both = { ...SITE, API_ORIGIN: 'https://api.ada.example', BACKEND_ORIGIN: 'https://backend.ada.example' };
    expect(() => loadConfig(both)).toThrow(ConfigError);
    let message = '';
    try {
      loadConfig(both);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /^Invalid BACKEND_ORIGIN="https:\/\/backend\.ada\.example": expected empty while API_ORIGIN is set/,
    );
    expect(message).toContain('https://api.ada.example');
    expect(message).not.toContain('\n');
  });
});

describe('owner notification settings', () => {
  const EMAIL = {
    SMTP_URL: 'smtps://me%40example.com:secret@smtp.example.com:465',
    NOTIFY_EMAIL_TO: 'me@example.com',
    NOTIFY_EMAIL_FROM: 'Portfolio <site@example.com>',
  };

  it('configures email only with all three of SMTP_URL, NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM', () => {
    expect(loadConfig({}).notify).toMatchObject({ webhook: null, email: null });
    expect(loadConfig(EMAIL).notify.email).toMatchObject({
      smtpUrl: EMAIL.SMTP_URL,
      to: 'me@example.com',
      from: 'Portfolio <site@example.com>',
    });
    expect(() => loadConfig({ SMTP_URL: EMAIL.SMTP_URL })).toThrow(
      /^Invalid NOTIFY_EMAIL_TO="": expected a value: SMTP_URL is set, and email delivery needs all of SMTP_URL, NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM \(or none\)\.$/,
    );
    expect(() => loadConfig({ ...EMAIL, SMTP_URL: '' })).toThrow(
      /^Invalid SMTP_URL="": .*NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM are set/,
    );
  });

  it('names the variable and hides the password of a bad SMTP_URL; refuses a list or a header in an address', () => {
    expect(() => loadConfig({ ...EMAIL, SMTP_URL: 'https://me:secret@smtp.example.com' })).toThrow(
      'Invalid SMTP_URL="https://me@smtp.example.com/": expected an absolute smtp:// or smtps:// URL, or empty.',
    );
    for (const to of ['me@example.com, other@example.com', 'me', 'me@example.com\r\nBcc: x@example.com'])
      expect(() => loadConfig({ ...EMAIL, NOTIFY_EMAIL_TO: to }), to).toThrow(ConfigError);
    expect(() => loadConfig({ ...EMAIL, NOTIFY_EMAIL_FROM: 'Portfolio site@example.com' })).toThrow(
      /NOTIFY_EMAIL_FROM/,
    );
    expect(loadConfig({ ...EMAIL, NOTIFY_EMAIL_FROM: 'site@example.com' }).notify.email?.from).toBe('site@example.com');
  });

  it('signs webhook posts only with a secret', () => {
    expect(loadConfig({ NOTIFY_WEBHOOK_URL: 'https://hooks.example.com/x' }).notify.webhook).toEqual({
      url: 'https://hooks.example.com/x',
      secret: null,
    });
    expect(
      loadConfig({ NOTIFY_WEBHOOK_URL: 'https://hooks.example.com/x', NOTIFY_WEBHOOK_SECRET: 's3cret' }).notify.webhook
        ?.secret,
    ).toBe('s3cret');
  });
});

describe('the site address', () => {
  it('is SITE_URL when set, else siteUrl in content/site.json, as the configuration table says', () => {
    const fromFile = siteBaseUrl(loadSite().siteUrl);
    expect(fromFile).not.toBeNull();
    expect(loadConfig({}).siteUrl).toBe(fromFile);
    expect(loadConfig({ SITE_URL: '' }).siteUrl).toBe(fromFile);
    expect(loadConfig({ SITE_URL: 'https://staging.example/' }).siteUrl).toBe('https://staging.example');
    const row = configTable()
      .split('\n')
      .find((line) => line.startsWith('| `SITE_URL` |'))!;
    expect(row).toMatch(/^\| `SITE_URL` \| `URL` on Netlify .*, else siteUrl in content\/site\.json \| /);
    expect(row).toContain('anywhere else the siteUrl in content/site.json');
    expect(row).toContain('set, it overrides both, for the build and the server alike');
  });

  it.each([
    'https://ada.example/?q=1',
    'https://me:pw@ada.example',
    'https://ada.example/#top',
    'ftp://ada.example',
    'ada.example',
  ])('follows one rule in both sources: %j is refused by each, naming where it was written', (value) => {
    expect(() => loadConfig({ SITE_URL: value })).toThrow(
      `Invalid SITE_URL=${JSON.stringify(value)}: expected ${SITE_URL_RULE}.`,
    );
    expect(() => parseSite({ ...loadSite(), siteUrl: value })).toThrow(
      `content/site.json is not valid:\n  - siteUrl: must be ${SITE_URL_RULE}`,
    );
  });
});

describe('redactUrl', () => {
  it('leaves out the password and every parameter whose name suggests a secret, and nothing else', () => {
    expect(
      redactUrl(
        'postgresql://ada:pw@db.example:5432/portfolio?sslmode=verify-full&sslpassword=s1&password=s2&sslkey=/k.pem&access_token=s3&application_name=web',
      ),
    ).toBe(
      'postgresql://ada@db.example:5432/portfolio?sslmode=verify-full&sslpassword=***&password=***&sslkey=***&access_token=***&application_name=web',
    );
    expect(redactUrl('rediss://:pw@cache.example:6380')).toBe('rediss://cache.example:6380');
    expect(redactUrl('not a url://ada:pw@host/db?sslpassword=s1&x=1')).toBe(
      'not a url://ada@host/db?sslpassword=***&x=1',
    );
  });
});
