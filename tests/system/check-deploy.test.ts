import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { bakedEnvironment } from '../../functions/config/baked-config.ts';
import { BUILD_MANIFEST_FILE, type BuildManifest } from '../../functions/hosts/static/build-manifest.ts';
import { ROOT } from '../support/server.ts';

const run = promisify(execFile);

/** A build folder holding only a manifest, as `npm run build` writes it for `environment`. */
function buildFolder(environment: Record<string, string>): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'check-deploy-'));
  const manifest: BuildManifest = {
    builtAt: '2026-01-01T00:00:00.000Z',
    sourceHash: '',
    environment: bakedEnvironment(environment),
  };
  writeFileSync(path.join(dist, BUILD_MANIFEST_FILE), `${JSON.stringify(manifest)}\n`);
  return dist;
}

/** `node --import tsx scripts/check-deploy.ts <dist>` in an environment of only the given baked variables. */
async function checkDeploy(
  dist: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { SITE_URL: _site, NETLIFY: _netlify, CF_PAGES: _pages, VERCEL: _vercel, ...rest } = process.env;
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/check-deploy.ts', dist], {
      cwd: ROOT,
      env: { ...rest, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

describe('the deploy check (scripts/check-deploy.ts): whether the bundled functions would serve with this environment', () => {
  const folders: string[] = [];
  const forNetlify = buildFolder({ NETLIFY: 'true', URL: 'https://ada-netlify.example' });
  folders.push(forNetlify);
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it("passes when the environment leaves SITE_URL to the build, or sets the build's", async () => {
    const unset = await checkDeploy(forNetlify, {});
    expect(unset).toMatchObject({ code: 0, stderr: '' });
    expect(unset.stdout).toBe(
      'deploy check: the build (2026-01-01T00:00:00.000Z) is for SITE_URL=https://ada-netlify.example, and this environment agrees.\n',
    );
    expect(await checkDeploy(forNetlify, { SITE_URL: 'https://ada-netlify.example/' })).toMatchObject({ code: 0 });
  });

  it('refuses another SITE_URL or quota in one line naming the variable and both values', async () => {
    const { code, stdout, stderr } = await checkDeploy(forNetlify, {
      SITE_URL: 'http://localhost:4321',
      READ_RATE_LIMIT: '7/60',
    });
    expect([code, stdout]).toEqual([1, '']);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toContain(
      'SITE_URL built with "https://ada-netlify.example", set to "http://localhost:4321"; READ_RATE_LIMIT built with "120/60", set to "7/60"',
    );
    expect(stderr).toContain('Rebuild and redeploy with SITE_URL="http://localhost:4321" READ_RATE_LIMIT="7/60"');
  });

  it('refuses a folder without a build, and a value the service cannot run with', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'check-deploy-'));
    folders.push(empty);
    const missing = await checkDeploy(empty, {});
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^deploy check: no build in .* \(build-manifest\.json is missing\): run npm run build first\.\n$/,
    );
    const bad = await checkDeploy(forNetlify, { SITE_URL: 'ftp://ada.example' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^deploy check: Invalid SITE_URL="ftp:\/\/ada\.example"/);
  });
});
