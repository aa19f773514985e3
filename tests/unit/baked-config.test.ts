import { describe, expect, it } from 'vitest';
import { BAKED_VARIABLES, bakedEnvironment, bakedMismatches } from '../../functions/config/baked-config.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { loadSite } from '../../functions/config/site.ts';
import { BuildMismatch } from '../../functions/hosts/static/build-manifest.ts';
import { ENV_VARIABLES, type EnvVariable } from '../../functions/config/env-variables.ts';
import { docFacts } from '../../functions/discovery/doc-facts.ts';
import { buildOpenApiDocument } from '../../functions/openapi/document.ts';

describe('the baked configuration', () => {
  const built = bakedEnvironment({});

  it('matches the environment it was recorded from', () => {
    expect(bakedMismatches(built, {})).toEqual([]);
  });

  it('compares values by meaning, not spelling', () => {
    expect(bakedMismatches(built, { SITE_URL: 'http://localhost:4321/', READ_RATE_LIMIT: ' 120/60' })).toEqual([]);
  });

  it('names each variable that differs, with both values', () => {
    expect(bakedMismatches(built, { READ_RATE_LIMIT: '7/60', SITE_URL: 'https://ada.example' })).toEqual([
      { variable: 'SITE_URL', built: 'http://localhost:4321', now: 'https://ada.example' },
      { variable: 'READ_RATE_LIMIT', built: '120/60', now: '7/60' },
    ]);
  });

  it('refuses a server whose API_ORIGIN is not the one the pages were built for, either way', () => {
    const split = bakedEnvironment({ API_ORIGIN: 'https://api.ada.example' });
    expect(bakedMismatches(built, { API_ORIGIN: 'https://api.ada.example' })).toEqual([
      { variable: 'API_ORIGIN', built: '', now: 'https://api.ada.example' },
    ]);
    expect(bakedMismatches(split, {})).toEqual([{ variable: 'API_ORIGIN', built: 'https://api.ada.example', now: '' }]);
    expect(bakedMismatches(split, { API_ORIGIN: 'https://api.ada.example/' })).toEqual([]);
  });

  it('refuses a service whose BACKEND_ORIGIN is not the one the host rules proxy to: it would refuse their Host', () => {
    const proxied = bakedEnvironment({ BACKEND_ORIGIN: 'https://backend.ada.example' });
    expect(bakedMismatches(proxied, {})).toEqual([
      { variable: 'BACKEND_ORIGIN', built: 'https://backend.ada.example', now: '' },
    ]);
    expect(bakedMismatches(proxied, { BACKEND_ORIGIN: 'https://backend.ada.example/' })).toEqual([]);
  });

  it('says where the site address now comes from when SITE_URL is unset: siteUrl in content/site.json', () => {
    const forStaging = { ...built, SITE_URL: 'https://staging.example' };
    const mismatches = bakedMismatches(forStaging, {});
    expect(mismatches).toEqual([
      {
        variable: 'SITE_URL',
        built: 'https://staging.example',
        now: loadSite().siteUrl,
        nowFrom: 'siteUrl in content/site.json',
      },
    ]);
    expect(new BuildMismatch(mismatches).message).toContain(
      `SITE_URL: built with "https://staging.example", now ${JSON.stringify(loadSite().siteUrl)} (SITE_URL is not set: the siteUrl in content/site.json)`,
    );
    expect(bakedMismatches(forStaging, { SITE_URL: 'https://staging.example/' })).toEqual([]);
  });

  it('counts a variable the build did not record as different', () => {
    const { SITE_URL: _siteUrl, ...older } = built;
    expect(bakedMismatches(older, {}).map((mismatch) => mismatch.variable)).toEqual(['SITE_URL']);
  });

  it('ignores variables the build does not write anywhere', () => {
    expect(bakedMismatches(built, { PORT: '8080', ACCESS_LOG: 'false', TRUST_PROXY: '1' })).toEqual([]);
  });

  /** Email delivery's variables, valid only together: each is tried with the other two. */
  const EMAIL = {
    SMTP_URL: 'smtps://me:secret@smtp.example.com:465',
    NOTIFY_EMAIL_TO: 'me@example.com',
    NOTIFY_EMAIL_FROM: 'site@example.com',
  };

  /** A valid value other than the default for every variable that is not baked. */
  const OTHER_VALUES: Partial<Record<EnvVariable, string>> = {
    PORT: '8080',
    HOST: '0.0.0.0',
    DATA_DIR: '/tmp/elsewhere',
    PORTFOLIO_ENV_FILE: '/etc/portfolio/portfolio.env',
    TRUST_PROXY: '2',
    CONTACT_MIN_FILL_SECONDS: '10',
    NOTIFY_WEBHOOK_URL: 'https://hooks.example/inbox',
    NOTIFY_RETRY_BASE_MS: '5',
    NOTIFY_MAX_ATTEMPTS: '3',
    NOTIFY_WEBHOOK_SECRET: 'a-secret',
    ...EMAIL,
    RATE_LIMIT_MAX_CLIENTS: '500',
    REDIS_URL: 'redis://127.0.0.1:6379',
    DATABASE_URL: 'postgres://portfolio@127.0.0.1:5432/portfolio',
    JOB_LEASE_SECONDS: '10',
    HEADERS_TIMEOUT_MS: '2000',
    REQUEST_TIMEOUT_MS: '40000',
    MAX_CONNECTIONS: '10',
    MAX_CONNECTIONS_PER_CLIENT: '5',
    MCP_ALLOWED_HOSTS: 'portfolio.internal',
    CRON_SECRET: 'a-long-random-cron-secret',
    ACCESS_LOG: 'false',
    ALLOW_BUILD_MISMATCH: 'true',
  };

  it('covers every variable that documents quote: the others leave the docs and the OpenAPI description as they are', () => {
    const unbaked = (Object.keys(ENV_VARIABLES) as EnvVariable[]).filter(
      (variable) => !BAKED_VARIABLES.includes(variable),
    );
    expect(unbaked.toSorted()).toEqual(Object.keys(OTHER_VALUES).toSorted());
    const documents = (env: Record<string, string>) => {
      const config = loadConfig(env);
      return JSON.stringify([docFacts(config), buildOpenApiDocument(config)]);
    };
    const reference = documents({});
    for (const variable of unbaked)
      expect(documents(variable in EMAIL ? EMAIL : { [variable]: OTHER_VALUES[variable]! }), variable).toBe(reference);
  });
});
