import { describe, expect, it } from 'vitest';
import { bakedEnvironment, bakedMismatches } from '../../functions/config/baked-config.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { loadSite } from '../../functions/config/site.ts';
import { builtEnvironment, redeployAdvice } from '../../functions/hosts/fetch/built-environment.ts';
import type { BuildManifest } from '../../functions/hosts/static/build-manifest.ts';

const fromFile = loadSite().siteUrl;

describe("SITE_URL's default: the host's own address in its builds, else content/site.json", () => {
  it.each([
    [{ NETLIFY: 'true', URL: 'https://ada-netlify.example' }, 'https://ada-netlify.example'],
    [{ CF_PAGES: '1', CF_PAGES_URL: 'https://1a2b3c4d.ada.pages.dev' }, 'https://1a2b3c4d.ada.pages.dev'],
    [{ VERCEL: '1', VERCEL_PROJECT_PRODUCTION_URL: 'ada.vercel.app' }, 'https://ada.vercel.app'],
  ])('takes %j as %s', (env, expected) => {
    expect(loadConfig(env).siteUrl).toBe(expected);
    expect(bakedEnvironment(env).SITE_URL).toBe(expected);
  });

  it('takes a host variable only with the marker the host sets beside it', () => {
    expect(loadConfig({ URL: 'https://elsewhere.example' }).siteUrl).toBe(fromFile);
    expect(loadConfig({ CF_PAGES_URL: 'https://x.ada.pages.dev', CF_PAGES: '0' }).siteUrl).toBe(fromFile);
    expect(loadConfig({ VERCEL_PROJECT_PRODUCTION_URL: 'ada.vercel.app' }).siteUrl).toBe(fromFile);
    expect(loadConfig({ NETLIFY: 'true', URL: '' }).siteUrl).toBe(fromFile);
  });

  it('lets SITE_URL override the host', () => {
    expect(
      loadConfig({ NETLIFY: 'true', URL: 'https://ada.netlify.app', SITE_URL: 'https://ada.example' }).siteUrl,
    ).toBe('https://ada.example');
  });

  it("names the host's variable when a build made elsewhere does not match", () => {
    const built = { ...bakedEnvironment({}), SITE_URL: 'https://ada.example' };
    expect(bakedMismatches(built, { NETLIFY: 'true', URL: 'https://ada.netlify.app' })).toEqual([
      {
        variable: 'SITE_URL',
        built: 'https://ada.example',
        now: 'https://ada.netlify.app',
        nowFrom: 'URL set by Netlify',
      },
    ]);
  });
});

describe("a function's environment: the build's baked values where it sets none", () => {
  const manifest: BuildManifest = {
    builtAt: '2026-01-01T00:00:00.000Z',
    sourceHash: '',
    environment: bakedEnvironment({ SITE_URL: 'https://ada.example', READ_RATE_LIMIT: '7/60' }),
  };

  it('takes SITE_URL and the quotas from the build when unset, and finds nothing to refuse', () => {
    const { env, mismatches } = builtEnvironment(manifest, { DATABASE_URL: 'postgresql://localhost/x' });
    expect(mismatches).toEqual([]);
    expect(loadConfig(env)).toMatchObject({ siteUrl: 'https://ada.example', readRateLimit: { count: 7, seconds: 60 } });
  });

  it("prefers the build to the runtime host's own address variable", () => {
    const { env, mismatches } = builtEnvironment(manifest, { NETLIFY: 'true', URL: 'https://ada.netlify.app' });
    expect(mismatches).toEqual([]);
    expect(loadConfig(env).siteUrl).toBe('https://ada.example');
  });

  it('accepts a set value that means the same, and refuses another, saying what to rebuild with', () => {
    expect(builtEnvironment(manifest, { SITE_URL: 'https://ada.example/' }).mismatches).toEqual([]);
    const { mismatches } = builtEnvironment(manifest, { SITE_URL: 'https://staging.example' });
    expect(mismatches).toEqual([
      { variable: 'SITE_URL', built: 'https://ada.example', now: 'https://staging.example' },
    ]);
    expect(redeployAdvice(mismatches)).toBe(
      'Rebuild and redeploy with SITE_URL="https://staging.example" (`SITE_URL="https://staging.example" npm run build`, then deploy), or remove SITE_URL from the function\'s environment to serve the build\'s values.',
    );
  });
});
