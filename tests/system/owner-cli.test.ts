import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContact, VALID } from '../support/contact.ts';
import { npmRun } from '../support/npm-run.ts';
import { freshDatabaseUrl, HAS_POSTGRES } from '../support/postgres.ts';
import { sh } from '../support/readme-commands.ts';
import { ROOT } from '../support/server.ts';
import { startService } from '../support/service.ts';
import { emailEnv, startMailbox } from '../support/smtp.ts';
import { waitFor } from '../support/webhook.ts';

/**
 * The owner's commands find the service's state the way the service does: from its environment
 * file (--env-file, read as systemd's EnvironmentFile= reads it), and never by creating an empty
 * database where there is none. Each notification mail names the command for its installation.
 */
const scratchDirs: string[] = [];
afterAll(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-owner-cli-'));
  scratchDirs.push(dir);
  return dir;
}
/** Message ids in the text of `npm run inbox`. */
const listedIds = (text: string) => [...text.matchAll(/^#(\d+) /gm)].map((m) => Number(m[1]));

/** A deployment on SQLite with one message, and its environment file as the deploy writes it. */
const deployment = { dataDir: '', envFile: '' };
beforeAll(async () => {
  deployment.dataDir = path.join(scratch(), 'state');
  const service = await startService({}, deployment.dataDir);
  try {
    expect(
      (await postContact(service.baseUrl, { ...VALID, message: 'Stored where the service keeps it' })).status,
    ).toBe(200);
  } finally {
    await service.stop();
  }
  deployment.envFile = path.join(scratch(), 'portfolio.env');
  writeFileSync(
    deployment.envFile,
    `# the service's settings\nSITE_URL="https://example.com"\n\nDATA_DIR="${deployment.dataDir}"\n#REDIS_URL="redis://localhost:6379"\n`,
  );
});

describe('an owner command where DATA_DIR holds no database', () => {
  it('npm run inbox says so, naming the path and --env-file, exits 1 and creates nothing', async () => {
    const missing = path.join(scratch(), 'data');
    const outcome = await npmRun('inbox', { DATA_DIR: missing });
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).not.toContain('No messages.');
    expect(outcome.stderr).toContain(`${missing}/portfolio.db does not exist`);
    expect(outcome.stderr).toContain('npm run inbox -- --env-file /etc/portfolio/portfolio.env');
    expect(existsSync(missing)).toBe(false);
  });

  it('npm run backup says so too, naming --env-file', async () => {
    const missing = path.join(scratch(), 'data');
    const outcome = await npmRun('backup', { DATA_DIR: missing }, path.join(scratch(), 'backup.db'));
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('npm run backup -- --env-file /etc/portfolio/portfolio.env');
  });
});

describe('--env-file', () => {
  it('npm run inbox reads the service’s settings from it, its values over the environment’s', async () => {
    // The environment points elsewhere (a shell with another DATA_DIR); the file wins, as in systemd.
    const elsewhere = path.join(scratch(), 'elsewhere');
    const outcome = await npmRun('inbox', { DATA_DIR: elsewhere }, '--env-file', deployment.envFile);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(listedIds(outcome.stdout)).toEqual([1]);
    expect(outcome.stdout).toContain('Stored where the service keeps it');
    expect(existsSync(elsewhere)).toBe(false);
  });

  it('npm run backup and restore read it too', async () => {
    const file = path.join(scratch(), 'backup.db');
    const backup = await npmRun('backup', {}, '--env-file', deployment.envFile, file);
    expect(backup.code, backup.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const restoredDir = path.join(scratch(), 'restored');
    const restoredEnv = path.join(scratch(), 'restored.env');
    writeFileSync(restoredEnv, `DATA_DIR='${restoredDir}'\n`);
    const restore = await npmRun('restore', {}, '--env-file', restoredEnv, file);
    expect(restore.code, restore.stderr).toBe(0);
    const inbox = await npmRun('inbox', {}, '--env-file', restoredEnv);
    expect(listedIds(inbox.stdout)).toEqual([1]);
  });

  it.skipIf(!HAS_POSTGRES)('npm run data:copy reads DATA_DIR and DATABASE_URL from it', async () => {
    const databaseUrl = await freshDatabaseUrl();
    const envFile = path.join(scratch(), 'portfolio.env');
    writeFileSync(envFile, `DATA_DIR="${deployment.dataDir}"\nDATABASE_URL="${databaseUrl}"\n`);
    const copied = await npmRun('data:copy', { DATABASE_URL: '', DATA_DIR: '' }, '--env-file', envFile);
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stdout).toMatch(/messages\s+1 copied/);
    // The inbox, with the same file, now reads PostgreSQL: the message is there.
    const inbox = await npmRun('inbox', { DATABASE_URL: '' }, '--env-file', envFile);
    expect(listedIds(inbox.stdout)).toEqual([1]);
  });

  it('refuses a file the shell and systemd would read differently, naming its line', async () => {
    const file = path.join(scratch(), 'bad.env');
    writeFileSync(file, `SITE_URL="https://example.com"\nDATABASE_URL="postgres://u:pa$word@localhost/db"\n`);
    const outcome = await npmRun('inbox', {}, '--env-file', file);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`${file}, line 2: the shell expands $`);
  });
});

describe('the notification mail', () => {
  /** The inbox line of the mail a service sends for one new message. */
  async function inboxLine(env: Record<string, string>, dataDir: string): Promise<string> {
    const mailbox = await startMailbox();
    const service = await startService({ ...emailEnv(mailbox), ...env }, dataDir);
    try {
      expect((await postContact(service.baseUrl, { ...VALID, message: 'Tell me where' })).status).toBe(200);
      await waitFor(() => mailbox.mails.length === 1, 'the mail');
    } finally {
      await service.stop();
      await mailbox.close();
    }
    const line = /^Your inbox: (.+)$/m.exec(mailbox.mails[0]!.body);
    expect(line, mailbox.mails[0]!.body).not.toBeNull();
    return line![1]!;
  }

  it('gives a command that, pasted on the server, lists the message: with the environment file when known', async () => {
    const dataDir = path.join(scratch(), 'with-env-file');
    const envFile = path.join(scratch(), 'portfolio.env');
    writeFileSync(envFile, `DATA_DIR="${dataDir}"\n`);
    const command = await inboxLine({ PORTFOLIO_ENV_FILE: envFile }, dataDir);
    expect(command).toContain(`--env-file ${envFile}`);
    // Pasted from another directory, into a shell whose DATA_DIR is unset.
    const listed = await sh(command, { cwd: scratch(), env: { DATA_DIR: '' } });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('Tell me where');
  });

  it('... and with the DATA_DIR when it is not the default', async () => {
    const dataDir = path.join(scratch(), 'without-env-file');
    const command = await inboxLine({}, dataDir);
    expect(command).toContain(`DATA_DIR=${dataDir}`);
    const listed = await sh(command, { cwd: scratch(), env: { DATA_DIR: '' } });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('Tell me where');
  });
});

describe('the environment template', () => {
  const template = readFileSync(path.join(ROOT, 'deploy/systemd/portfolio.env'), 'utf8');
  /** The value of the template's (commented) line for `name` whose value matches `pattern`. */
  const line = (name: string, pattern: RegExp) =>
    [...template.matchAll(new RegExp(`^#?${name}="(.*)"$`, 'gm'))]
      .map((m) => m[1]!)
      .find((value) => pattern.test(value));

  it('mails through a local relay without an account, which offers STARTTLS with a self-signed certificate', async () => {
    const dir = scratch();
    await promisify(execFile)('openssl', [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-subj', '/CN=localhost', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`],
    ]);
    const relay = await startMailbox(0, null, {
      key: readFileSync(`${dir}/key.pem`, 'utf8'),
      cert: readFileSync(`${dir}/cert.pem`, 'utf8'),
    });
    const smtpUrl = line('SMTP_URL', /localhost:25/);
    expect(smtpUrl, 'a local relay line in deploy/systemd/portfolio.env').toBeDefined();
    const service = await startService({
      SMTP_URL: smtpUrl!.replace('localhost:25', `127.0.0.1:${relay.port}`),
      NOTIFY_EMAIL_TO: line('NOTIFY_EMAIL_TO', /@/)!,
      NOTIFY_EMAIL_FROM: line('NOTIFY_EMAIL_FROM', /@/)!,
    });
    try {
      expect((await postContact(service.baseUrl, { ...VALID, message: 'Through the local relay' })).status).toBe(200);
      await waitFor(() => relay.mails.length === 1, 'the mail through the relay');
      expect(relay.mails[0]!.body).toContain('Through the local relay');
    } finally {
      await service.stop();
      await relay.close();
    }
  });
});
