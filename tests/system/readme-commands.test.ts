import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseEnvFile } from '../../functions/config/env-file.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { deployButtonsMarkdown, FORK_PLACEHOLDER } from '../../functions/hosts/static/deploy-buttons.ts';
import { parseSite } from '../../functions/config/site.ts';
import { MIGRATIONS as PG_MIGRATIONS } from '../../functions/state/postgres/migrations.ts';
import { postContact, readInbox, runInboxOutput, VALID } from '../support/contact.ts';
import { npmRun } from '../support/npm-run.ts';
import { freshDatabaseUrl, HAS_POSTGRES, POSTGRES_BIN } from '../support/postgres.ts';
import { queryState } from '../support/raw-state.ts';
import { readmeCommands, sh, substitute } from '../support/readme-commands.ts';
import { ROOT } from '../support/server.ts';
import { startService } from '../support/service.ts';
import { startMailbox, type Mailbox } from '../support/smtp.ts';
import { waitFor } from '../support/webhook.ts';

/**
 * The commands of the owner's sections (the README's, and those of docs/operations.md) that no
 * test runs here, and why. Reviewed: a
 * command the README adds must be run by a test below or listed here, or the last test fails.
 */
const NOT_RUN: Record<string, string> = {
  'npm install && npm start': 'needs the registry and rewrites node_modules; `npm start` alone is run (Upgrading)',
  'npm install': 'needs the registry and rewrites node_modules',
  'npm ci': 'needs the registry and rewrites node_modules',
  'npm test': 'this test is part of it',
  'npm run build': 'about a minute, and it rewrites dist/ under the tests running beside this one; `npm test` runs it',
  'SITE_URL=https://staging.example npm run build':
    'a build (see `npm run build`); the refusal of a build made for another SITE_URL is run with the environment file (Deploy)',
  'node --import tsx scripts/record-example-content.ts':
    'writes scripts/init/example-content.json in this checkout; tests/unit/content-check.test.ts says when it is due',
  'sudo install -d -o "$USER" /opt/portfolio && git clone <your fork> /opt/portfolio && cd /opt/portfolio':
    'root, a fork on a server, and /opt',
  'sudo useradd --system --home-dir /var/lib/portfolio --shell /usr/sbin/nologin portfolio': 'root, and a system user',
  'sudo install -d -m 2750 -o "$USER" -g portfolio /etc/portfolio': 'root, /etc, and the system user',
  'sudo install -m 0640 -o "$USER" -g portfolio deploy/systemd/portfolio.env /etc/portfolio/portfolio.env':
    'root, /etc; the file is sourced as it is, and read with --env-file (Deploy)',
  'systemd-analyze verify': 'run on deploy/systemd/portfolio.service by tests/system/systemd-unit.test.ts',
  'sudo cp deploy/systemd/portfolio.service /etc/systemd/system/ && sudo systemctl daemon-reload && sudo systemctl enable --now portfolio':
    'root and a running systemd',
  'journalctl -u portfolio': 'a running systemd',
  'sudo apt-get install nginx libnginx-mod-http-brotli-static':
    "root and Debian's archive; .ci/run installs both for tests/system/nginx-static.test.ts and nginx-front.test.ts",
  'sudo cp dist/nginx/portfolio.conf /etc/nginx/sites-available/portfolio':
    "root and /etc; tests/system/nginx-static.test.ts serves the build with the file the build wrote, in Debian's nginx",
  'sudo ln -sf /etc/nginx/sites-available/portfolio /etc/nginx/sites-enabled/portfolio': 'root and /etc',
  'sudo cp dist/nginx/portfolio.conf /etc/nginx/sites-available/portfolio && sudo nginx -t && sudo systemctl reload nginx':
    "root and a running systemd; tests/system/nginx-static.test.ts runs `nginx -t` on the generated site in Debian's nginx.conf",
  "sed 's/#server 127\\.0\\.0\\.1:4322 /server 127.0.0.1:4322 /' dist/nginx/portfolio.conf | sudo tee /etc/nginx/sites-available/portfolio > /dev/null":
    'root and /etc; tests/system/nginx-restart.test.ts runs the generated site with its second server line enabled',
  'npm run nginx-site -- --without-brotli':
    'rewrites dist/nginx/portfolio.conf, which nginx-static.test.ts holds equal to a fresh generation; tests/unit/nginx-site.test.ts makes the site without brotli',
  'npm run nginx-site -- --server-name backend.ada.example':
    'rewrites dist/nginx/portfolio.conf (as above); tests/unit/nginx-site.test.ts makes the site for a given server name',
  'SITE_URL=https://ada.example BACKEND_ORIGIN=https://backend.ada.example npm run build':
    'a build (see `npm run build`); tests/api/host-rules.test.ts makes the rules for a BACKEND_ORIGIN from the header table',
  'CF_PAGES=1 SITE_URL=… API_ORIGIN=https://api.ada.example npm run build':
    "a build (see `npm run build`); tests/api/host-rules.test.ts makes Cloudflare's rules and reads them with its limits",
  "find dist/client -name '*.br' -delete -o -name '*.gz' -delete":
    'deletes files of dist/client under the tests running beside this one',
  'npx netlify-cli deploy --prod --dir dist/client': 'a Netlify account and the network',
  'npx vercel deploy dist/client --prod': 'a Vercel account and the network',
  'cd dist/client && npx wrangler pages deploy .':
    'a Cloudflare account and the network; tests/system/cloudflare-pages-functions.test.ts shows wrangler finds no Pages Functions where it runs',
  'npx wrangler secret put DATABASE_URL': 'a Cloudflare account and the network',
  'npm run check:deploy':
    'tests/system/check-deploy.test.ts runs its script against builds made for other values, and `npm run deploy:cloudflare` runs it in tests/system/function-deploy-commands.test.ts',
  'npm run bench:functions':
    'a benchmark of minutes on its own PostgreSQL and Redis; docs/performance.md gives its figures, and the hosts it starts run in tests/system/function-*.test.ts',
  'npm run readme:deploy':
    'rewrites README.md and docs/deploy-buttons.md in this checkout; tests/unit/readme.test.ts holds the table in both equal to what it writes',
  'cp .dev.vars.example .dev.vars':
    'writes .dev.vars in this checkout; tests/system/function-deploy-commands.test.ts writes one in a copy of the checkout, and tests/unit/deploy-buttons.test.ts holds .dev.vars.example to the deploy variables',
  'npm run deploy:cloudflare -- --dry-run':
    'migrates and builds (minutes, and it rewrites dist/); tests/system/function-deploy-commands.test.ts runs it, with --outdir, on a copy of the checkout with a .dev.vars of its own',
  'npm run deploy:cloudflare':
    'a Cloudflare account and the network; tests/system/function-deploy-commands.test.ts runs it with --dry-run, which does all but the upload',
  'npm run preview:cloudflare':
    'a server that runs until stopped, on the build of deploy:cloudflare --dry-run; tests/system/function-deploy-commands.test.ts runs it with --port on that build and posts a message through it to a webhook receiver',
  'npm run preview:netlify':
    'a server that runs until stopped, on the build of deploy:cloudflare --dry-run; tests/system/function-deploy-commands.test.ts runs it with --port on that build and posts a message through it to a webhook receiver',
  'npm run preview:netlify -- --build':
    'a server that runs until stopped; tests/system/function-owner-journey.test.ts runs it with --build (and --port) in a fresh clone and sends the contact form through it from Chromium to a webhook receiver',
  'sudo nginx -t && sudo systemctl reload nginx':
    'root and a running systemd; tests/system/nginx-front.test.ts runs the site with nginx',
  'sudo certbot certonly --standalone -d example.com': 'a public host name and a certificate authority',
  'certbot certonly --webroot -w /var/www/letsencrypt -d example.com': 'a public host name and a certificate authority',
  'sudo -u portfolio npm run backup -- --env-file /etc/portfolio/portfolio.env /var/backups/portfolio/before-upgrade.db':
    "root and the service's user; backups with --env-file are run (Backups), and tests/system/upgrade-from-1.1.0.test.ts upgrades from such a backup",
  'npm run inbox -- --env-file /etc/portfolio/portfolio.env':
    'the command of Deploy step 4 without cd and sudo, run there (the inbox on the server)',
  'git pull && npm ci': 'a remote, and the registry; pulling upstream changes is run with a local upstream (Upgrading)',
  'git pull': 'a remote; pulling upstream changes is run with a local upstream (Upgrading)',
  'sudo systemctl restart portfolio': 'root and a running systemd',
  'npm run data:copy': 'named; run in full with its options (PostgreSQL: moving up from SQLite)',
  'sudo apt-get install redis-server': "root and Debian's archive; the tests run Debian's redis-server",
  'sudo systemctl daemon-reload && sudo systemctl restart portfolio && sudo systemctl enable --now portfolio-2':
    'root and a running systemd; the second unit file is written by a test',
  'sudo systemctl restart portfolio-2':
    'root and a running systemd; tests/system/nginx-restart.test.ts restarts two instances',
  'sudo apt-get install postgresql': "root and Debian's archive; the tests run Debian's postgresql-15",
  'sudo crontab -u portfolio -e': 'root, and an editor; the line it takes is run',
  'systemctl enable --now portfolio-backup.timer': 'a running systemd; the ExecStart= line of its service is run',
};

/** Commands the tests below run, by test: with NOT_RUN, exactly those the owner sections show. */
const RUN = new Map<string, string>();

/**
 * A test of README commands: it names the commands it runs (as the README shows them), and the
 * body must pass each through `shown` to use it, so a command is never listed as run yet skipped.
 */
function runs(
  title: string,
  commands: readonly string[],
  body: (shown: (command: string) => string) => Promise<void>,
  { skip = false } = {},
): void {
  for (const command of commands) RUN.set(command, title);
  it.skipIf(skip)(title, async () => {
    const used = new Set<string>();
    await body((command) => {
      if (!commands.includes(command)) throw new Error(`not named by this test: ${command}`);
      used.add(command);
      return command;
    });
    expect(commands.filter((command) => !used.has(command))).toEqual([]);
  });
}

const scratchDirs: string[] = [];
afterAll(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});
/** A new temporary directory, deleted after the file's tests. */
function scratch(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `portfolio-readme-${name}-`));
  scratchDirs.push(dir);
  return dir;
}
const pad = (n: number) => String(n).padStart(2, '0');
/** `date +%F`, the date the commands put in file names. */
const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
};
/** An environment file for the deployment of these tests, as /etc/portfolio/portfolio.env would be. */
function ownerEnvFile(): string {
  const file = path.join(scratch('env-file'), 'portfolio.env');
  writeFileSync(file, `SITE_URL="https://example.com"\nDATA_DIR="${owner.dataDir}"\n`);
  return file;
}
const idsIn = async (dataDir: string) => (await readInbox(dataDir)).map((entry) => entry.id);
/** Message ids in the text of `npm run inbox`, in order. */
const listedIds = (text: string) => [...text.matchAll(/^#(\d+) /gm)].map((m) => Number(m[1]));
/** The ids of `Queued #<id> for <channel>` lines. */
const queuedIds = (stderr: string) => [...stderr.matchAll(/^Queued #(\d+) for email/gm)].map((m) => Number(m[1]));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

it('every command the owner sections show is run below or listed as not run, with a reason', () => {
  const shown = new Set([...readmeCommands().values()].flat());
  expect([...shown].filter((command) => !RUN.has(command) && NOT_RUN[command] === undefined)).toEqual([]);
  expect(Object.keys(NOT_RUN).filter((command) => !shown.has(command))).toEqual([]);
  expect([...RUN.keys()].filter((command) => !shown.has(command))).toEqual([]);
  expect(Object.keys(NOT_RUN).filter((command) => RUN.has(command))).toEqual([]);
});

describe('Make it yours', () => {
  const INIT =
    'npm run init -- --name "Ada Lovelace" --url https://ada.example [--tagline "..."] [--email you@ada.example]';
  /** A copy of content/ to initialize (the real one is never touched). */
  const contentCopy = () => {
    const root = scratch('init');
    cpSync(path.join(ROOT, 'content'), path.join(root, 'content'), { recursive: true });
    return root;
  };
  const site = (root: string) => parseSite(JSON.parse(readFileSync(path.join(root, 'content/site.json'), 'utf8')));

  runs('npm run init, with and without its optional parts, then again changing nothing', [INIT], async (shown) => {
    const bare = contentCopy();
    const required = await sh(`${substitute(shown(INIT), [[/ \[.*\]$/, '']])} --root ${bare}`);
    expect(required.code, required.stderr).toBe(0);
    expect(site(bare)).toMatchObject({ name: 'Ada Lovelace', siteUrl: 'https://ada.example' });
    expect(readdirSync(path.join(bare, 'content/projects'))).toEqual(['my-first-project.md']);

    const full = contentCopy();
    const everything = `${substitute(INIT, [
      ['"..."', '"Poetical science"'],
      [/[[\]]/g, ''],
    ])} --root ${full}`;
    expect((await sh(everything)).code).toBe(0);
    expect(site(full)).toMatchObject({ tagline: 'Poetical science', email: 'you@ada.example' });
    const before = readFileSync(path.join(full, 'content/site.json'), 'utf8');
    const again = await sh(everything);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/nothing to change/);
    expect(readFileSync(path.join(full, 'content/site.json'), 'utf8')).toBe(before);
  });
});

/** One deployment on SQLite with 15 messages, stored before any channel was configured; #12 is spam. */
const owner = { dataDir: '' };
beforeAll(async () => {
  owner.dataDir = scratch('data');
  const service = await startService({ CONTACT_RATE_LIMIT: '1000/600' }, owner.dataDir);
  try {
    for (let n = 1; n <= 15; n++) {
      const message =
        n === 12
          ? 'Buy now https://a.example https://b.example https://c.example https://d.example'
          : `Message ${n}: I enjoyed reading about Leakhound.`;
      expect((await postContact(service.baseUrl, { ...VALID, message })).status).toBe(200);
    }
  } finally {
    await service.stop();
  }
  // Eight days old: outside `--since 7d`.
  await queryState(owner.dataDir, 'UPDATE messages SET created_at = ? WHERE id = 1', Date.now() - 8 * 86_400_000);
});

describe('Be told', () => {
  const EMAIL = [
    'SMTP_URL=smtp://you%40example.com:app-password@smtp.example.com:587',
    'SMTP_URL=smtps://you%40example.com:app-password@smtp.example.com:465',
    'NOTIFY_EMAIL_TO=you@example.com',
    'NOTIFY_EMAIL_FROM="Portfolio <site@example.com>"',
  ];
  let mailbox: Mailbox;
  /** The three variables as the README sets them, the SMTP host replaced by the mailbox in this process. */
  let emailEnv: Record<string, string>;

  /** The value an assignment line leaves in the shell. */
  async function assigned(line: string): Promise<[string, string]> {
    const name = line.slice(0, line.indexOf('='));
    return [name, (await sh(`${line}; printf %s "$${name}"`)).stdout];
  }

  runs('the email variables: both SMTP_URL forms load, and the smtp:// one delivers', EMAIL, async (shown) => {
    const [starttls, tls, to, from] = await Promise.all(EMAIL.map((line) => assigned(shown(line))));
    for (const smtpUrl of [starttls![1], tls![1]]) {
      const config = loadConfig({ SMTP_URL: smtpUrl, [to![0]]: to![1], [from![0]]: from![1] });
      expect(config.notify.email).toMatchObject({
        smtpUrl,
        to: 'you@example.com',
        from: 'Portfolio <site@example.com>',
      });
    }
    // The account as the README percent-encodes it; the mailbox accepts only it, decoded.
    const account = new URL(starttls![1]);
    mailbox = await startMailbox(0, { user: decodeURIComponent(account.username), password: account.password });
    emailEnv = {
      SMTP_URL: substitute(starttls![1], [['smtp.example.com:587', `127.0.0.1:${mailbox.port}`]]),
      [to![0]]: to![1],
      [from![0]]: from![1],
    };
  });

  runs(
    'npm run inbox -- --redeliver: by id, --since 7d, then every message',
    ['npm run inbox -- --redeliver 12 15', 'npm run inbox -- --redeliver --since 7d', 'npm run inbox -- --redeliver'],
    async (shown) => {
      const env = { ...emailEnv, DATA_DIR: owner.dataDir };
      // #12 is spam, which is never delivered: only #15 is queued.
      const byId = await sh(shown('npm run inbox -- --redeliver 12 15'), { env });
      expect(byId.code, byId.stderr).toBe(0);
      expect(queuedIds(byId.stderr)).toEqual([15]);
      const recent = await sh(shown('npm run inbox -- --redeliver --since 7d'), { env });
      expect(queuedIds(recent.stderr).sort((a, b) => a - b)).toEqual([...range(2, 11), 13, 14]);
      const all = await sh(shown('npm run inbox -- --redeliver'), { env });
      expect(queuedIds(all.stderr)).toEqual([1]);
      const inbox = await readInbox(owner.dataDir);
      expect(inbox.every((entry) => entry.deliveries.email?.state === 'pending')).toBe(true);
    },
  );

  runs(
    'npm run inbox -- --spam lists the spam, --not-spam 12 moves it and queues its mail',
    ['npm run inbox -- --spam', 'npm run inbox -- --not-spam 12'],
    async (shown) => {
      const env = { ...emailEnv, DATA_DIR: owner.dataDir };
      const spam = await sh(shown('npm run inbox -- --spam'), { env });
      expect(listedIds(spam.stdout)).toEqual([12]);
      expect(spam.stdout).toMatch(/spam: never notified \(.*link/);
      const moved = await sh(shown('npm run inbox -- --not-spam 12'), { env });
      expect(moved.stderr).toContain('Moved #12 to the inbox (queued for email)');
      expect((await readInbox(owner.dataDir, '12'))[0]).toMatchObject({
        folder: 'inbox',
        deliveries: { email: { state: 'pending' } },
      });
    },
  );

  runs(
    'the running server mails what was queued and every new message; npm run inbox shows it',
    ['npm run inbox'],
    async (shown) => {
      const service = await startService(emailEnv, owner.dataDir);
      try {
        expect(
          (await postContact(service.baseUrl, { ...VALID, message: 'Message 16, after the channel' })).status,
        ).toBe(200);
        await waitFor(() => mailbox.mails.length >= 16, 'a mail for every message');
        await waitFor(
          async () => (await readInbox(owner.dataDir)).every((e) => e.deliveries.email?.state === 'delivered'),
          'the deliveries to be recorded',
        );
      } finally {
        await service.stop();
        await mailbox.close();
      }
      const ids = mailbox.mails.map((mail) => Number(/<message-(\d+)@/.exec(mail.headers['message-id'] ?? '')?.[1]));
      expect(ids.sort((a, b) => a - b)).toEqual(range(1, 16));
      for (const mail of mailbox.mails) {
        expect(mail.to).toEqual(['you@example.com']);
        expect(mail.headers['reply-to']).toContain(VALID.email);
        expect(mail.headers.from).toBe('Portfolio <site@example.com>');
      }
      const inbox = await sh(shown('npm run inbox'), { env: { DATA_DIR: owner.dataDir } });
      expect(listedIds(inbox.stdout).sort((a, b) => a - b)).toEqual(range(1, 16));
      expect(inbox.stdout.match(/email: delivered/g)).toHaveLength(16);
    },
  );

  runs(
    'npm run inbox takes its options with and without --, and --help lists every option the README names',
    [
      'npm run inbox --unread',
      'npm run inbox -- --since 1h',
      'npm run inbox --since=1h',
      'npm run inbox --since 1h',
      'npm run inbox -- --help',
    ],
    async (shown) => {
      const env = { DATA_DIR: owner.dataDir };
      await runInboxOutput({}, owner.dataDir, '--mark-read', '2');
      const unread = listedIds((await sh(shown('npm run inbox --unread'), { env })).stdout);
      expect(unread).not.toContain(2);
      expect(unread).toContain(3);
      const recent = listedIds((await sh(shown('npm run inbox -- --since 1h'), { env })).stdout);
      expect(recent).not.toContain(1);
      expect(recent).toContain(2);
      expect(listedIds((await sh(shown('npm run inbox --since=1h'), { env })).stdout)).toEqual(recent);
      const astray = await sh(shown('npm run inbox --since 1h'), { env });
      expect(astray.code).toBe(1);
      expect(astray.stderr).toContain('--since=<value>');
      const help = await sh(shown('npm run inbox -- --help'), { env });
      expect(help.code).toBe(0);
      const operations = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
      const options = /Options: (.*?) and `--help`/s.exec(operations)![1]!;
      for (const [, option] of options.matchAll(/`(--[a-z-]+)/g)) expect(help.stdout).toContain(option);
    },
  );

  runs('openssl rand -hex 32 makes a webhook secret the service takes', ['openssl rand -hex 32'], async (shown) => {
    const secret = (await sh(shown('openssl rand -hex 32'))).stdout.trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const config = loadConfig({ NOTIFY_WEBHOOK_URL: 'https://hooks.example/portfolio', NOTIFY_WEBHOOK_SECRET: secret });
    expect(config.notify.webhook?.secret).toBe(secret);
  });
});

describe('Backups', () => {
  const EXEC_START =
    "ExecStart=/bin/sh -c 'exec node dist/server/backup.mjs /var/backups/portfolio/portfolio-$(date +%%F).db'";
  const CRON =
    '15 3 * * * cd /opt/portfolio && node dist/server/backup.mjs --env-file /etc/portfolio/portfolio.env /var/backups/portfolio/portfolio-$(date +\\%F).db';
  const PRUNE = "find /var/backups/portfolio -name 'portfolio-*.db' -mtime +30 -delete";

  /** The messages of a backup, restored into a new DATA_DIR by the README's restore command. */
  async function restoredIds(restore: string, file: string): Promise<number[]> {
    const dataDir = path.join(scratch('restored'), 'data');
    const restored = await sh(substitute(restore, [['<file>', file]]), { env: { DATA_DIR: dataDir } });
    expect(restored.code, restored.stderr).toBe(0);
    return idsIn(dataDir);
  }

  runs(
    'npm run backup -- <file> writes a copy only the owner reads; npm run restore -- <file> puts it back',
    ['npm run backup -- <file>', 'npm run restore -- <file>'],
    async (shown) => {
      const file = path.join(scratch('backup'), 'portfolio.db');
      const backup = await sh(substitute(shown('npm run backup -- <file>'), [['<file>', file]]), {
        env: { DATA_DIR: owner.dataDir },
      });
      expect(backup.code, backup.stderr).toBe(0);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(await restoredIds(shown('npm run restore -- <file>'), file)).toEqual(await idsIn(owner.dataDir));
    },
  );

  runs(
    "the timer's ExecStart= (with systemd's %%) and the cron line (with cron's \\%) each write today's backup",
    [EXEC_START, CRON],
    async (shown) => {
      const expected = [`portfolio-${today()}.db`];
      const byTimer = scratch('timer');
      // systemd turns %% into %, then runs /bin/sh -c '...' in WorkingDirectory= with Environment=.
      const execStart = substitute(shown(EXEC_START), [
        [/^ExecStart=/, ''],
        ['%%', '%'],
        ['/var/backups/portfolio', byTimer],
      ]);
      const timer = await sh(execStart, { env: { DATA_DIR: owner.dataDir } });
      expect(timer.code, timer.stderr).toBe(0);
      expect(readdirSync(byTimer)).toEqual(expected);

      // cron hands the text after the schedule, with \% made %, to sh in the user's home.
      const byCron = scratch('cron');
      const cronCommand = substitute(shown(CRON), [
        [/^(?:\S+ ){5}/, ''],
        ['\\%', '%'],
        ['/opt/portfolio', ROOT],
        ['/etc/portfolio/portfolio.env', ownerEnvFile()],
        ['/var/backups/portfolio', byCron],
      ]);
      const cron = await sh(cronCommand, { cwd: scratch('home') });
      expect(cron.code, cron.stderr).toBe(0);
      expect(readdirSync(byCron)).toEqual(expected);
      const restore = 'npm run restore -- <file>';
      expect(await restoredIds(restore, path.join(byCron, expected[0]!))).toEqual(await idsIn(owner.dataDir));
    },
  );

  runs('find ... -mtime +30 -delete removes only old backups', [PRUNE], async (shown) => {
    const dir = scratch('prune');
    const old = new Date(Date.now() - 40 * 86_400_000);
    for (const file of ['portfolio-2000-01-01.db', 'notes.txt', `portfolio-${today()}.db`]) {
      writeFileSync(path.join(dir, file), '');
      if (file !== `portfolio-${today()}.db`) utimesSync(path.join(dir, file), old, old);
    }
    expect((await sh(substitute(shown(PRUNE), [['/var/backups/portfolio', dir]]))).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['notes.txt', `portfolio-${today()}.db`]);
  });
});

/** The messages in a PostgreSQL, as `npm run inbox` on it lists them. */
async function idsOn(databaseUrl: string): Promise<number[]> {
  const { code, stdout, stderr } = await npmRun('inbox', { DATABASE_URL: databaseUrl }, '--json');
  expect(code, stderr).toBe(0);
  return listedJson(stdout);
}
const listedJson = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { id: number }).id);

async function messageRows(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ table: string | null }>(`SELECT to_regclass('messages')::text AS table`);
    if (rows[0]!.table === null) return 0;
    return (await client.query<{ count: number }>('SELECT COUNT(*)::int AS count FROM messages')).rows[0]!.count;
  } finally {
    await client.end();
  }
}

describe('PostgreSQL: on the same machine, its backups, and moving up from SQLite', () => {
  const COPY = 'DATABASE_URL=postgres://… npm run data:copy -- --data-dir ./data';
  const INBOX_ON_POSTGRES = 'DATABASE_URL=… npm run inbox';
  const SETUP = [
    'PASSWORD=$(openssl rand -hex 24)',
    `sudo -u postgres psql -c "CREATE ROLE portfolio LOGIN PASSWORD '$PASSWORD'"`,
    'sudo -u postgres createdb --owner portfolio portfolio',
    'echo "DATABASE_URL=\\"postgres://portfolio:$PASSWORD@localhost:5432/portfolio\\"" >> /etc/portfolio/portfolio.env',
  ];
  const SOURCE = 'set -a && . /etc/portfolio/portfolio.env && set +a';
  const DUMP = '(umask 077 && pg_dump -Fc "$DATABASE_URL" -f portfolio-$(date +%F).dump)';
  const RESTORE = [
    'sudo -u postgres createdb --owner portfolio portfolio_restored',
    `sed -i 's|@localhost:5432/portfolio"$|@localhost:5432/portfolio_restored"|' /etc/portfolio/portfolio.env`,
    SOURCE,
    'pg_restore --no-owner -d "$DATABASE_URL" portfolio-2026-11-26.dump',
  ];
  const DROP = 'sudo -u postgres dropdb portfolio';

  /** The deployment the README sets up: its environment file, role and database names. */
  const machine = { envFile: '', role: '', database: '', dumpDir: '' };
  /** A README script with the machine's names: the run's PostgreSQL as its superuser, a role and database of this test. */
  function onThisMachine(script: string): string {
    const admin = new URL(inject('postgresUrl'));
    const at = `${admin.hostname}:${admin.port}`;
    return script
      .replace(
        /sudo -u postgres (psql|createdb|dropdb)/g,
        `${POSTGRES_BIN}/$1 -h ${admin.hostname} -p ${admin.port} -U ${decodeURIComponent(admin.username)}`,
      )
      .replaceAll('/etc/portfolio/portfolio.env', machine.envFile)
      .replace(/ROLE portfolio /g, `ROLE ${machine.role} `)
      .replace(/--owner portfolio /g, `--owner ${machine.role} `)
      .replace(/postgres:\/\/portfolio:/g, `postgres://${machine.role}:`)
      .replace(/localhost:5432\/portfolio/g, `${at}/${machine.database}`)
      .replace(/((?:createdb|dropdb) .* )portfolio(?=_restored$|$)/gm, `$1${machine.database}`);
  }
  const pgEnv = () => ({ PATH: `${POSTGRES_BIN}:${process.env.PATH ?? ''}`, DATABASE_URL: '' });
  /** The ids `npm run inbox -- --env-file` lists for the machine's environment file. */
  async function idsWithEnvFile(): Promise<number[]> {
    const listed = await npmRun('inbox', { DATABASE_URL: '' }, '--env-file', machine.envFile, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    return listedJson(listed.stdout);
  }

  runs(
    'PostgreSQL on the same machine: the role, the database and DATABASE_URL as shown; the service and the inbox use them',
    SETUP,
    async (shown) => {
      const suffix = `${process.pid}_${Date.now()}`;
      Object.assign(machine, {
        role: `portfolio_${suffix}`,
        database: `portfolio_db_${suffix}`,
        dumpDir: scratch('pg-dump'),
      });
      machine.envFile = path.join(scratch('pg-env'), 'portfolio.env');
      writeFileSync(machine.envFile, readFileSync(path.join(ROOT, 'deploy/systemd/portfolio.env')));
      const setup = await sh(onThisMachine(SETUP.map(shown).join('\n')), { env: pgEnv() });
      expect(setup.code, setup.stderr).toBe(0);

      const env = parseEnvFile(readFileSync(machine.envFile, 'utf8'), machine.envFile);
      expect(env.DATABASE_URL).toMatch(new RegExp(`^postgres://${machine.role}:[0-9a-f]{48}@`));
      const service = await startService({ DATABASE_URL: env.DATABASE_URL!, REDIS_URL: '' });
      try {
        for (const n of [1, 2])
          expect((await postContact(service.baseUrl, { ...VALID, message: `On PostgreSQL ${n}` })).status).toBe(200);
      } finally {
        await service.stop();
      }
      expect(await idsWithEnvFile()).toEqual([2, 1]);
    },
    { skip: !HAS_POSTGRES },
  );

  runs(
    'pg_dump under umask 077 writes a file only the owner reads; restored into a new database, nothing is lost',
    [SOURCE, DUMP, ...RESTORE.filter((line) => line !== SOURCE), DROP],
    async (shown) => {
      const dumped = await sh(onThisMachine(`${shown(SOURCE)}\n${shown(DUMP)}`), {
        cwd: machine.dumpDir,
        env: pgEnv(),
      });
      expect(dumped.code, dumped.stderr).toBe(0);
      const file = `portfolio-${today()}.dump`;
      expect(readdirSync(machine.dumpDir)).toEqual([file]);
      expect(statSync(path.join(machine.dumpDir, file)).mode & 0o777).toBe(0o600);

      const restore = substitute(onThisMachine(RESTORE.map(shown).join('\n')), [['portfolio-2026-11-26.dump', file]]);
      const restored = await sh(restore, { cwd: machine.dumpDir, env: pgEnv() });
      expect(restored.code, restored.stderr).toBe(0);
      expect(readFileSync(machine.envFile, 'utf8')).toContain(`/${machine.database}_restored"`);
      // The old database goes; the restored one, named in the file, holds every message.
      const dropped = await sh(onThisMachine(shown(DROP)), { env: pgEnv() });
      expect(dropped.code, dropped.stderr).toBe(0);
      expect(await idsWithEnvFile()).toEqual([2, 1]);
    },
    { skip: !HAS_POSTGRES },
  );

  runs(
    'data:copy (--dry-run first) moves a SQLite deployment into PostgreSQL; the inbox lists it there; npm run backup refuses there',
    [COPY, INBOX_ON_POSTGRES, 'npm run backup'],
    async (shown) => {
      const url = await freshDatabaseUrl();
      const copy = substitute(shown(COPY), [
        ['postgres://…', url],
        ['./data', owner.dataDir],
      ]);
      const dryRun = await sh(`${copy} --dry-run`);
      expect(dryRun.code, dryRun.stderr).toBe(0);
      expect(await messageRows(url)).toBe(0);
      const copied = await sh(copy);
      expect(copied.code, copied.stderr).toBe(0);
      expect(await idsOn(url)).toEqual(await idsIn(owner.dataDir));
      // A function deployment's inbox, read from the owner's checkout with its DATABASE_URL.
      const inbox = await sh(substitute(shown(INBOX_ON_POSTGRES), [['DATABASE_URL=…', `DATABASE_URL='${url}'`]]), {
        env: { DATA_DIR: scratch('no-data') },
      });
      expect(inbox.code, inbox.stderr).toBe(0);
      const inSqlite = await sh('npm run inbox', { env: { DATABASE_URL: '', DATA_DIR: owner.dataDir } });
      expect(listedIds(inbox.stdout)).toEqual(listedIds(inSqlite.stdout));
      expect(listedIds(inbox.stdout).length).toBeGreaterThan(0);

      const refused = await sh(shown('npm run backup'), { env: { DATABASE_URL: url } });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/pg_dump/);
    },
    { skip: !HAS_POSTGRES },
  );
});

describe('Live without a server', () => {
  const BUTTONS = 'npm run deploy:buttons -- https://github.com/<you>/<repo>';
  runs(
    'npm run deploy:buttons prints, for a fork, the buttons the README shows for the placeholder',
    [BUTTONS],
    async (shown) => {
      const fork = 'https://github.com/ada/portfolio';
      const printed = await sh(substitute(shown(BUTTONS), [['https://github.com/<you>/<repo>', fork]]));
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).toContain(`${deployButtonsMarkdown(fork)}\n`);
      expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain(deployButtonsMarkdown(FORK_PLACEHOLDER));
    },
  );

  runs(
    'npm run migrate brings PostgreSQL to the schema once, however many run it together, and says when it is current',
    ['npm run migrate'],
    async (shown) => {
      const script = shown('npm run migrate').replace(/^npm run /, '');
      const url = await freshDatabaseUrl();
      const together = await Promise.all([
        npmRun(script, { DATABASE_URL: url }),
        npmRun(script, { DATABASE_URL: url }),
      ]);
      expect(together.map((outcome) => outcome.code)).toEqual([0, 0]);
      const said = together.map((outcome) => outcome.stdout).join('');
      expect(said).toMatch(/brought to schema version (\d+) \(applied 1, 2, /);
      expect(said).toMatch(/is at schema version \d+, current/);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ version: number; times: number }>(
          'SELECT version, count(*)::int AS times FROM schema_migrations GROUP BY version',
        );
        expect(rows.length).toBe(PG_MIGRATIONS.length);
        expect(rows.every((row) => row.times === 1)).toBe(true);
      } finally {
        await client.end();
      }
      const withoutDatabase = await npmRun(script, { DATABASE_URL: '' });
      expect([withoutDatabase.code, withoutDatabase.stdout]).toEqual([
        0,
        'migrate: DATABASE_URL is not set; SQLite is migrated by the service itself.\n',
      ]);
    },
    { skip: !HAS_POSTGRES },
  );
});

describe('Deploy', () => {
  const SOURCE_AND_BUILD = 'set -a && . /etc/portfolio/portfolio.env && set +a && npm run build';
  const ENV_FILE = ['/etc/portfolio/portfolio.env', path.join(ROOT, 'deploy/systemd/portfolio.env')] as [
    string,
    string,
  ];

  runs(
    'deploy/systemd/portfolio.env sourced as shown sets a valid configuration, which a build for another SITE_URL refuses',
    [SOURCE_AND_BUILD],
    async (shown) => {
      const printEnv = `node -e 'process.stdout.write(JSON.stringify(process.env))'`;
      const sourced = await sh(substitute(shown(SOURCE_AND_BUILD), [ENV_FILE, ['npm run build', printEnv]]));
      expect(sourced.code, sourced.stderr).toBe(0);
      const config = loadConfig(JSON.parse(sourced.stdout) as NodeJS.ProcessEnv);
      expect(config.siteUrl).toBe('https://example.com');
      // This run's build was made for the default SITE_URL: the server names what differs.
      const check = await sh(
        substitute(SOURCE_AND_BUILD, [ENV_FILE, ['npm run build', 'node dist/server/portfolio.mjs --check']]),
      );
      expect(check.code).not.toBe(0);
      expect(check.stderr).toContain('SITE_URL');
    },
  );

  const INBOX_ON_SERVER =
    'cd /opt/portfolio && sudo -u portfolio npm run inbox -- --env-file /etc/portfolio/portfolio.env';
  runs(
    'the inbox on the server: the service’s environment file names its DATA_DIR',
    [INBOX_ON_SERVER],
    async (shown) => {
      // As the service's user: this test runs as the user who owns the data directory already.
      const command = substitute(shown(INBOX_ON_SERVER), [
        ['/opt/portfolio', ROOT],
        ['sudo -u portfolio ', ''],
        ['/etc/portfolio/portfolio.env', ownerEnvFile()],
      ]);
      const listed = await sh(command, { cwd: scratch('elsewhere'), env: { DATA_DIR: '' } });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listedIds(listed.stdout).sort((a, b) => a - b)).toEqual(
        await idsIn(owner.dataDir).then((ids) => ids.sort((a, b) => a - b)),
      );
    },
  );

  const SECOND = [
    `echo 'REDIS_URL="redis://localhost:6379"' >> /etc/portfolio/portfolio.env`,
    "sed 's/^Environment=PORT=4321$/Environment=PORT=4322/' deploy/systemd/portfolio.service | sudo tee /etc/systemd/system/portfolio-2.service > /dev/null",
    'until curl -fsS -o /dev/null http://127.0.0.1:4321/api/health; do sleep 0.5; done',
  ];
  runs(
    'a second instance: REDIS_URL in the environment file, a unit that differs only in its port, and the wait until one answers',
    SECOND,
    async (shown) => {
      const [redis, unit, ready] = SECOND.map(shown) as [string, string, string];
      const envFile = ownerEnvFile();
      expect((await sh(substitute(redis, [['/etc/portfolio/portfolio.env', envFile]]))).code).toBe(0);
      expect(parseEnvFile(readFileSync(envFile, 'utf8'), envFile).REDIS_URL).toBe('redis://localhost:6379');

      const second = path.join(scratch('unit'), 'portfolio-2.service');
      const written = await sh(
        substitute(unit, [['| sudo tee /etc/systemd/system/portfolio-2.service > /dev/null', `> ${second}`]]),
      );
      expect(written.code, written.stderr).toBe(0);
      const original = readFileSync(path.join(ROOT, 'deploy/systemd/portfolio.service'), 'utf8').split('\n');
      const copy = readFileSync(second, 'utf8').split('\n');
      expect(copy.filter((line, i) => line !== original[i])).toEqual(['Environment=PORT=4322']);

      const service = await startService();
      try {
        const waited = await sh(substitute(ready, [['127.0.0.1:4321', new URL(service.baseUrl).host]]));
        expect(waited.code, waited.stderr).toBe(0);
      } finally {
        await service.stop();
      }
    },
  );

  runs('command -v node names the node to put in ExecStart=', ['command -v node'], async (shown) => {
    const node = (await sh(shown('command -v node'))).stdout.trim();
    expect(path.isAbsolute(node) && existsSync(node)).toBe(true);
  });
});

describe('Upgrading', () => {
  runs(
    'npm run backup -- ~/portfolio-before-upgrade.db writes into the home directory',
    ['npm run backup -- ~/portfolio-before-upgrade.db'],
    async (shown) => {
      const home = scratch('home');
      const backup = await sh(shown('npm run backup -- ~/portfolio-before-upgrade.db'), {
        env: { HOME: home, DATA_DIR: owner.dataDir, npm_config_update_notifier: 'false' },
      });
      expect(backup.code, backup.stderr).toBe(0);
      expect(statSync(path.join(home, 'portfolio-before-upgrade.db')).mode & 0o777).toBe(0o600);
    },
  );

  runs('npm start serves the build as it is when nothing changed', ['npm start'], async (shown) => {
    const child = spawn('sh', ['-c', shown('npm start')], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: scratch('start') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
    try {
      // A stale build would be rebuilt under the other tests: stop at once and say why.
      await waitFor(() => lines.some((line) => line.startsWith('start:')), 'npm start to decide');
      expect(
        lines.find((line) => line.startsWith('start:')),
        'run `npm run build` before this test',
      ).toMatch(/not rebuilding/);
      await waitFor(() => lines.some((line) => line.includes('"listening"')), 'the server to listen');
      const { port } = JSON.parse(lines.find((line) => line.includes('"listening"'))!) as { port: number };
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  });

  const MERGE = [
    'git remote add upstream <upstream repository URL>',
    'git fetch upstream',
    'git merge upstream/main',
    'git checkout --ours content/ && git add content/ && git commit',
  ];
  runs('pulling upstream into a fork keeps the fork’s content and takes upstream’s code', MERGE, async (shown) => {
    const base = scratch('git');
    const env = {
      HOME: base,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@ada.example',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@ada.example',
      // `git commit` of a merge opens the editor on the prepared message; the owner saves it as it is.
      GIT_EDITOR: 'true',
    };
    const git = async (cwd: string, line: string) => {
      const outcome = await sh(line, { cwd, env });
      expect(outcome.code, `${line}: ${outcome.stderr}`).toBe(0);
    };
    const upstream = path.join(base, 'upstream');
    const fork = path.join(base, 'fork');
    const write = (root: string, file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    write(upstream, 'content/site.json', '{"name": "Example"}\n');
    write(upstream, 'functions/server.ts', 'export const version = 1;\n');
    await git(upstream, 'git init -q -b main && git add . && git commit -qm example');
    await git(base, `git clone -q ${upstream} ${fork}`);
    write(fork, 'content/site.json', '{"name": "Ada Lovelace"}\n');
    await git(fork, 'git commit -qam "my content"');
    write(upstream, 'content/site.json', '{"name": "Example, renamed"}\n');
    write(upstream, 'functions/server.ts', 'export const version = 2;\n');
    write(upstream, 'content/projects/new-example.md', '# New example\n');
    await git(upstream, 'git add . && git commit -qm upstream');

    const [remote, fetchUpstream, merge, keepOurs] = MERGE.map(shown);
    await git(fork, substitute(remote!, [['<upstream repository URL>', upstream]]));
    await git(fork, fetchUpstream!);
    const conflicted = await sh(merge!, { cwd: fork, env });
    expect(conflicted.code).toBe(1);
    expect(conflicted.stdout).toContain('CONFLICT (content): Merge conflict in content/site.json');
    await git(fork, keepOurs!);
    const read = (file: string) => readFileSync(path.join(fork, file), 'utf8');
    expect(read('content/site.json')).toBe('{"name": "Ada Lovelace"}\n');
    expect(read('functions/server.ts')).toBe('export const version = 2;\n');
    expect(existsSync(path.join(fork, 'content/projects/new-example.md'))).toBe(true);
    // A clean tree, and a merge commit: its two parents are the fork's work and upstream's.
    expect((await sh('git status --porcelain', { cwd: fork, env })).stdout).toBe('');
    expect((await sh('git log -1 --format=%P', { cwd: fork, env })).stdout.trim().split(' ')).toHaveLength(2);
  });
});
