import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContact, VALID } from '../support/contact.ts';
import { engineEnv, TEST_ENGINE } from '../support/engines.ts';
import { freePort } from '../support/free-port.ts';
import { ownerShell, PREVIEWS, startPreview, stopPreview, type PreviewScript } from '../support/owner-preview.ts';
import { freshDataDir, ROOT } from '../support/server.ts';
import { receiver, type Receiver } from '../support/webhook.ts';

const run = promisify(execFile);

/** A copy of the checkout's files (as git lists them), with the dependencies linked: the commands rebuild dist/ there, not under the other tests. */
function checkoutCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-deploy-'));
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(path.join(ROOT, file))) continue;
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(dir, file));
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/**
 * The owner's commands for a function deployment, on a copy of the checkout with a `.dev.vars`
 * of their own (a fresh database, a webhook receiver): `npm run deploy:cloudflare -- --dry-run`
 * migrates, builds with CF_PAGES=1 and has wrangler bundle the Worker without uploading; then
 * `npm run preview:netlify` and `npm run preview:cloudflare` serve that build against the same
 * database, and a contact message reaches the webhook through each.
 */
describe.skipIf(TEST_ENGINE !== 'shared')('deploy:cloudflare --dry-run, preview:netlify, preview:cloudflare', () => {
  let dir: string;
  let hook: Receiver;

  beforeAll(async () => {
    dir = checkoutCopy();
    hook = await receiver(0);
    const { DATABASE_URL } = await engineEnv(freshDataDir());
    writeFileSync(path.join(dir, '.dev.vars'), `DATABASE_URL=${DATABASE_URL}\nNOTIFY_WEBHOOK_URL=${hook.url}\n`);
  });
  afterAll(() => {
    hook?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('deploy:cloudflare --dry-run migrates the database of .dev.vars, builds, and bundles the Worker without uploading', async () => {
    const { stdout } = await run('npm', ['run', 'deploy:cloudflare', '--', '--dry-run', '--outdir', 'worker-out'], {
      cwd: dir,
      env: ownerShell(),
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stdout).toMatch(/deploy:cloudflare: values from .*\.dev\.vars/);
    expect(stdout).toMatch(/migrate: .* brought to schema version \d+/);
    expect(stdout).toContain('host rules: _headers (for Cloudflare Pages');
    expect(stdout).toContain('--dry-run: exiting now.');
    expect(existsSync(path.join(dir, 'worker-out/cloudflare-worker.js'))).toBe(true);
  }, 600_000);

  for (const script of Object.keys(PREVIEWS) as PreviewScript[])
    it(`${script} serves the build and its functions against that database; a message reaches the webhook`, async () => {
      const port = await freePort();
      const child = await startPreview(dir, script, port);
      try {
        const base = `http://127.0.0.1:${port}`;
        expect((await fetch(`${base}/`)).status).toBe(200);
        expect((await fetch(`${base}/api/v1/projects`)).status).toBe(200);
        const before = hook.received.length;
        const posted = await postContact(base, { ...VALID, message: `through ${script}` });
        expect(posted.status).toBe(200);
        await hook.accepted(before + 1);
        expect(hook.received.at(-1)?.body.message).toBe(`through ${script}`);
      } finally {
        await stopPreview(child);
      }
    }, 180_000);
});
