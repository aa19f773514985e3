import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { siteBaseUrl } from '../../functions/config/site-url.ts';
import { freshDataDir, ROOT, SERVER_ENTRY } from '../support/server.ts';

const run = promisify(execFile);

/** The server's start check (`--check`, what `npm start` asks before deciding to rebuild) with SITE_URL as given. */
async function startCheck(siteUrl: string | undefined): Promise<{ code: number; stderr: string }> {
  const { SITE_URL: _unset, ...env } = process.env;
  const withSiteUrl = siteUrl === undefined ? env : { ...env, SITE_URL: siteUrl };
  try {
    await run(process.execPath, [SERVER_ENTRY, '--check'], {
      cwd: ROOT,
      env: { ...withSiteUrl, PORT: '0', DATA_DIR: freshDataDir() },
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const failure = error as { code: number; stderr: string };
    return { code: failure.code, stderr: failure.stderr };
  }
}

describe('the site address: SITE_URL when set, else siteUrl in content/site.json', () => {
  const fromFile = siteBaseUrl(JSON.parse(readFileSync(path.join(ROOT, 'content/site.json'), 'utf8')).siteUrl);
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'dist/build-manifest.json'), 'utf8')) as {
    environment: { SITE_URL?: string };
  };

  it('is what a build made without SITE_URL records: the siteUrl in content/site.json', () => {
    expect(manifest.environment.SITE_URL).toBe(fromFile);
  });

  it('is what the start check holds that build to: unset, or set to that same address, both pass', async () => {
    expect(await startCheck(undefined)).toEqual({ code: 0, stderr: '' });
    expect(await startCheck('')).toEqual({ code: 0, stderr: '' });
    expect(await startCheck(`${fromFile}/`)).toEqual({ code: 0, stderr: '' });
  });

  it('overrides the file when set to another address: the start check then refuses the build', async () => {
    const { code, stderr } = await startCheck('https://staging.example');
    expect(code).toBe(1);
    expect(stderr).toContain(`SITE_URL: built with ${JSON.stringify(fromFile)}, now "https://staging.example"`);
    expect(stderr).toContain('npm run build');
  });
});
