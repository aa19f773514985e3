import { describe, expect, it } from 'vitest';
import { notifySettings } from '../../functions/app/services.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { checkoutInboxCommand, inboxCommand } from '../../functions/config/inbox-command.ts';

describe('inboxCommand', () => {
  const checkout = { cwd: '/opt/portfolio', runAs: null };

  it('names the environment file, in the checkout, as the service’s user when that is another', () => {
    const settings = { envFile: '/etc/portfolio/portfolio.env', dataDir: '/opt/portfolio/data', onSqlite: true };
    expect(inboxCommand(settings, checkout)).toBe(
      'cd /opt/portfolio && npm run inbox -- --env-file /etc/portfolio/portfolio.env',
    );
    expect(inboxCommand(settings, { ...checkout, runAs: 'portfolio' })).toBe(
      'cd /opt/portfolio && sudo -u portfolio npm run inbox -- --env-file /etc/portfolio/portfolio.env',
    );
    // The file holds DATA_DIR (deploy/systemd/portfolio.env): the command names only the file.
    expect(inboxCommand({ ...settings, dataDir: '/var/lib/portfolio' }, { ...checkout, runAs: 'portfolio' })).toBe(
      'cd /opt/portfolio && sudo -u portfolio npm run inbox -- --env-file /etc/portfolio/portfolio.env',
    );
  });

  it('without an environment file, names DATA_DIR when it is not the default, through env(1) under sudo', () => {
    const settings = { envFile: null, dataDir: '/var/lib/portfolio', onSqlite: true };
    expect(inboxCommand(settings, checkout)).toBe('cd /opt/portfolio && DATA_DIR=/var/lib/portfolio npm run inbox');
    expect(inboxCommand(settings, { ...checkout, runAs: 'portfolio' })).toBe(
      'cd /opt/portfolio && sudo -u portfolio env DATA_DIR=/var/lib/portfolio npm run inbox',
    );
    expect(inboxCommand({ ...settings, dataDir: '/opt/portfolio/data' }, checkout)).toBe(
      'cd /opt/portfolio && npm run inbox',
    );
  });

  it('puts the options after the script’s own, the environment file first', () => {
    const settings = { envFile: '/etc/portfolio/portfolio.env', dataDir: '/var/lib/portfolio', onSqlite: true };
    expect(inboxCommand(settings, checkout, ['--spam'])).toBe(
      'cd /opt/portfolio && npm run inbox -- --env-file /etc/portfolio/portfolio.env --spam',
    );
    expect(inboxCommand({ ...settings, envFile: null }, checkout, ['--spam'])).toBe(
      'cd /opt/portfolio && DATA_DIR=/var/lib/portfolio npm run inbox -- --spam',
    );
    expect(inboxCommand({ envFile: null, dataDir: '/x', onSqlite: false }, checkout, ['--spam'])).toBe(
      "cd /opt/portfolio && npm run inbox -- --spam (with the service's DATABASE_URL set)",
    );
  });

  it('leaves DATA_DIR out on PostgreSQL, and quotes what the shell would split', () => {
    expect(inboxCommand({ envFile: null, dataDir: '/srv/x', onSqlite: false }, checkout)).toBe(
      "cd /opt/portfolio && npm run inbox (with the service's DATABASE_URL set)",
    );
    expect(
      inboxCommand(
        { envFile: "/etc/my site/it's.env", dataDir: '/x', onSqlite: false },
        { cwd: '/home/ada/my portfolio', runAs: null },
      ),
    ).toBe(`cd '/home/ada/my portfolio' && npm run inbox -- --env-file '/etc/my site/it'\\''s.env'`);
  });
});

describe('the inbox command a function deployment names (checkoutInboxCommand)', () => {
  it("is run from the owner's checkout with the deployment's DATABASE_URL, never in the host's folder", () => {
    expect(checkoutInboxCommand()).toBe(
      "DATABASE_URL=… npm run inbox (in your checkout, with this deployment's DATABASE_URL)",
    );
    expect(checkoutInboxCommand(['--spam'])).toBe(
      "DATABASE_URL=… npm run inbox -- --spam (in your checkout, with this deployment's DATABASE_URL)",
    );
  });

  it('replaces the server commands in the notifications of a function instance, and only there', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db.example/p',
      SMTP_URL: 'smtp://localhost:2525',
      NOTIFY_EMAIL_TO: 'ada@example.com',
      NOTIFY_EMAIL_FROM: 'site@example.com',
    });
    const onFunction = notifySettings(config, 'function');
    expect(onFunction.email?.inboxCommand).toBe(checkoutInboxCommand());
    expect(onFunction.spamCommand).toBe(checkoutInboxCommand(['--spam']));
    expect(onFunction.email?.inboxCommand).not.toContain('cd ');
    const onServer = notifySettings(config, 'long-lived');
    expect(onServer).toBe(config.notify);
    expect(onServer.email?.inboxCommand).toBe(
      `cd ${process.cwd()} && npm run inbox (with the service's DATABASE_URL set)`,
    );
  });
});
