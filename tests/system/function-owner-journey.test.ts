import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnvFile } from '../../functions/config/env-file.ts';
import { ENV_VARIABLES } from '../../functions/config/env-variables.ts';
import { GUARD_FIELDS } from '../../functions/contact/contact-page.ts';
import { launchChromium, watchedPage } from '../support/browser.ts';
import { TEST_ENGINE } from '../support/engines.ts';
import { freePort } from '../support/free-port.ts';
import { ownerShell, startPreview, stopPreview, type PreviewScript } from '../support/owner-preview.ts';
import { freshDatabaseUrl } from '../support/postgres.ts';
import { ROOT } from '../support/server.ts';
import { receiver } from '../support/webhook.ts';

const run = promisify(execFile);

/** The owner's name for `npm run init`; the starter project is the one project it writes. */
const OWNER = ['--name', 'Ada Lovelace', '--url', 'https://ada.example'];
/** The same as the owner types it. */
const OWNER_TYPED = OWNER.map((arg) => (arg.includes(' ') ? `"${arg}"` : arg)).join(' ');

/** The two values `.dev.vars.example` asks for, the only ones the owner types. */
const TYPED = ['DATABASE_URL', 'NOTIFY_WEBHOOK_URL'];

/** One host's rehearsal as the README's step 4 gives it: a command that migrates and builds, if any, then the preview. */
interface Host {
  name: string;
  /** `npm run` arguments that migrate the database and build, before the preview. */
  prepare: string[] | null;
  preview: PreviewScript;
  /** What the preview is given beside its port. */
  previewArgs: string[];
}

const HOSTS: Host[] = [
  {
    name: 'Cloudflare (workerd)',
    prepare: ['deploy:cloudflare', '--', '--dry-run'],
    preview: 'preview:cloudflare',
    previewArgs: [],
  },
  {
    // --build does what Netlify's build does (npm run build && npm run migrate) with .dev.vars' values.
    name: 'Netlify (preview server)',
    prepare: null,
    preview: 'preview:netlify',
    previewArgs: ['--build'],
  },
];

/** What each step took on this machine: a record for the README's closing note, never asserted. */
const timings: { host: string; step: string; seconds: number }[] = [];

async function step<T>(host: string, name: string, action: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await action();
  } finally {
    timings.push({ host, step: name, seconds: Math.round((performance.now() - started) / 100) / 10 });
  }
}

/** `npm run <args>` in the clone from the owner's shell with `env` added; stdout and stderr. */
async function npm(dir: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout, stderr } = await run('npm', ['run', ...args], {
      cwd: dir,
      env: { ...ownerShell(), ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return `${stdout}${stderr}`;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
}

/**
 * A fresh clone of the commit under test, as an owner gets it: only what is committed (no
 * `.dev.vars`, no `dist/`, no untracked file the journey might lean on), the dependencies
 * linked rather than installed. Uncommitted changes in the checkout are not in it, and the
 * test says so in its output.
 */
function ownerClone(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-owner-'));
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  execFileSync('git', ['clone', '--quiet', '--no-checkout', ROOT, dir]);
  execFileSync('git', ['checkout', '--quiet', '--detach', commit], { cwd: dir });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' });
  if (dirty !== '') console.log(`owner journey: testing commit ${commit}; uncommitted changes left out:\n${dirty}`);
  return dir;
}

/** `.dev.vars.example` with the values of `TYPED` filled in, as the owner copies and edits it. */
function filledDevVars(example: string, values: Record<string, string>): string {
  return example
    .split('\n')
    .map((line) => {
      const name = /^([A-Z_]+)=/.exec(line)?.[1];
      return name !== undefined && name in values ? `${name}=${values[name]}` : line;
    })
    .join('\n');
}

/**
 * The owner's way from a fresh clone to a message in their inbox through a function host's local
 * rehearsal, for Cloudflare and for Netlify: `npm run init` with a name, `.dev.vars` from
 * `.dev.vars.example` with a local PostgreSQL database and a webhook receiver, the README's
 * rehearsal (Cloudflare: `deploy:cloudflare -- --dry-run`, then the preview; Netlify: the
 * preview with `--build`), the contact form sent from Chromium, the webhook
 * received, and `npm run inbox` listing the message. Each host has its own clone, database and
 * receiver; they run one after the other.
 */
describe.skipIf(TEST_ENGINE !== 'shared')('the owner’s journey to a function host, rehearsed locally', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (timings.length === 0) return;
    const line = (host: string, seconds: number, what: string) =>
      `${host.padEnd(26)} ${seconds.toFixed(1).padStart(6)} s  ${what}`;
    const lines = HOSTS.flatMap(({ name }) => {
      const steps = timings.filter(({ host }) => host === name);
      const total = steps.reduce((sum, { seconds }) => sum + seconds, 0);
      return [...steps.map(({ seconds, step }) => line(name, seconds, step)), line(name, total, 'in all'), ''];
    });
    console.log(`owner journey, seconds per step on this machine:\n${lines.join('\n')}`);
  });

  for (const host of HOSTS)
    it(`${host.name}: clone, init, .dev.vars, migrate, build, ${host.preview}, a message from Chromium reaches the webhook and the inbox`, async () => {
      const hook = await receiver(0);
      let dir: string | undefined;
      let preview: ChildProcess | undefined;
      try {
        dir = await step(host.name, 'git clone (node_modules linked)', async () => ownerClone());
        const clone = dir;

        const initOutput = await step(host.name, `npm run init -- ${OWNER_TYPED}`, () =>
          npm(clone, ['init', '--', ...OWNER]),
        );
        expect(initOutput).toContain('wrote   content/site.json');
        expect(readdirSync(path.join(clone, 'content/projects')).filter((f) => f.endsWith('.md'))).toHaveLength(1);

        const databaseUrl = await freshDatabaseUrl();
        const example = readFileSync(path.join(clone, '.dev.vars.example'), 'utf8');
        // The example asks for exactly these values: anything more would be typed by the owner too.
        expect(Object.keys(parseEnvFile(example, '.dev.vars.example')).sort()).toEqual([...TYPED].sort());
        await step(host.name, 'cp .dev.vars.example .dev.vars; fill in its two values (the machine’s part)', async () =>
          writeFileSync(
            path.join(clone, '.dev.vars'),
            filledDevVars(example, { DATABASE_URL: databaseUrl, NOTIFY_WEBHOOK_URL: hook.url }),
          ),
        );
        const owner = parseEnvFile(readFileSync(path.join(clone, '.dev.vars'), 'utf8'), '.dev.vars');
        expect(owner).toEqual({ DATABASE_URL: databaseUrl, NOTIFY_WEBHOOK_URL: hook.url });

        const prepare = host.prepare;
        if (prepare !== null) {
          const prepared = await step(host.name, `npm run ${prepare.join(' ')}`, () => npm(clone, prepare));
          expect(prepared).toMatch(/migrate: .* brought to schema version \d+/);
        }

        const port = await freePort();
        const previewCommand = `npm run ${host.preview}${host.previewArgs.length > 0 ? ` -- ${host.previewArgs.join(' ')}` : ''}`;
        preview = await step(host.name, `${previewCommand} (until it serves)`, () =>
          startPreview(clone, host.preview, port, { args: host.previewArgs }),
        );
        const base = `http://127.0.0.1:${port}`;

        const message = `Hello Ada, sent through ${host.preview} from a fresh clone.`;
        const { page, problems } = await watchedPage(browser, true);
        try {
          await step(host.name, 'open /contact in Chromium', () => page.goto(`${base}/contact`));
          expect(await page.title()).toContain('Ada Lovelace');
          await step(host.name, 'fill in name, email and message', async () => {
            await page.getByLabel('Your name').fill('Grace Hopper');
            await page.getByLabel('Your email').fill('grace@example.com');
            await page.getByLabel(/Message/).fill(message);
          });
          // A person takes longer than the minimum fill time (a quicker post is kept as spam):
          // wait until the page's signed token is that old, by the time it carries.
          await step(host.name, 'wait out the minimum fill time', async () => {
            const token = await page.locator(`input[name="${GUARD_FIELDS.formToken}"]`).inputValue();
            const issued = parseInt(token.split('.')[0]!, 36);
            const minFillMs = Number(ENV_VARIABLES.CONTACT_MIN_FILL_SECONDS.default) * 1000;
            await sleep(Math.max(0, issued + minFillMs + 500 - Date.now()));
          });
          await step(host.name, 'send; the thank-you page', () =>
            Promise.all([
              page.waitForURL('**/contact/thanks', { timeout: 60_000 }),
              page.getByRole('button', { name: 'Send message' }).click(),
            ]),
          );
          expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');
          expect(problems).toEqual([]);
        } finally {
          await page.context().close();
        }

        await step(host.name, 'the webhook receives the message', () => hook.accepted(1));
        expect(hook.received[0]?.body.message).toBe(message);

        const inbox = await step(host.name, 'DATABASE_URL=… npm run inbox', () =>
          npm(clone, ['inbox'], { DATABASE_URL: databaseUrl }),
        );
        expect(inbox.split(message).length - 1).toBe(1);
        expect(inbox).toContain('Grace Hopper <grace@example.com>');
        // Once: no second post arrived while the inbox was read.
        expect(hook.received).toHaveLength(1);
      } finally {
        await stopPreview(preview);
        hook.close();
        if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      }
    }, 900_000);
});
