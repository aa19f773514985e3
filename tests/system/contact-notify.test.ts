import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { postContact, runInbox, storedInbox, VALID } from '../support/contact.ts';
import { engineEnv } from '../support/engines.ts';
import { ROOT, startServer } from '../support/server.ts';
import { emailEnv, startMailbox } from '../support/smtp.ts';
import { waitFor } from '../support/webhook.ts';

const run = promisify(execFile);

describe('owner notification by email across a restart', () => {
  it('resumes pending mail after the server is killed, and the inbox shows where it stood', async () => {
    const mailbox = await startMailbox();
    mailbox.refuse(Infinity);
    const first = await startServer({ ...emailEnv(mailbox), NOTIFY_RETRY_BASE_MS: '1500' });
    const message = `Pending across a restart ${randomUUID()}`;
    try {
      expect((await postContact(first.baseUrl, { ...VALID, message })).status).toBe(200);
      await waitFor(
        async () => (await storedInbox(first.dataDir))[0]?.deliveries.email?.attempts === 1,
        'a first refused attempt',
      );
      // The log arrives through a pipe, maybe after the database shows the attempt.
      await waitFor(() => first.logLines.some((line) => line.message === 'email delivery failed'), 'the warning');
      const warning = first.logLines.find((line) => line.message === 'email delivery failed');
      expect(warning).toMatchObject({ level: 'warning', channel: 'email', attempt: 1 });
      expect(String(warning!.error)).toMatch(/451/);
      expect(typeof warning!.nextAttemptAt).toBe('string');
      // Another refused attempt may come while the CLI starts (1.5 s on a busy machine): any count will do.
      const text = await runInbox(first.dataDir);
      expect(text).toMatch(/email: pending \(\d+ attempts, last error: .*451.*, next /);
    } finally {
      await first.stop('SIGKILL');
    }
    expect(mailbox.mails).toHaveLength(0);
    const refused = (await storedInbox(first.dataDir))[0]!.deliveries.email!.attempts;
    // The SMTP server accepts again; nothing in the new process knew of the message but the outbox.
    mailbox.refuse(0);
    const restarted = await startServer({ ...emailEnv(mailbox), NOTIFY_RETRY_BASE_MS: '50' }, first.dataDir);
    try {
      await waitFor(() => mailbox.mails.length === 1, 'the pending mail after the restart');
      expect(mailbox.mails[0]!.body).toContain(message);
      await waitFor(
        async () => (await storedInbox(restarted.dataDir))[0]?.deliveries.email?.state === 'delivered',
        'the delivery to be recorded',
      );
      expect((await storedInbox(restarted.dataDir))[0]!.deliveries.email).toMatchObject({
        attempts: refused + 1,
        lastError: null,
      });
      expect(await runInbox(restarted.dataDir)).toContain('email: delivered');
    } finally {
      await restarted.stop();
      await mailbox.close();
    }
  });
});

/** `npm run inbox <args>` as the owner types it (no `--` unless given), on `dataDir`. */
async function npmInbox(dataDir: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'inbox', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, ...(await engineEnv(dataDir)) },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe('npm run inbox with and without --', () => {
  it('takes flags either way, refuses a value npm took apart, and lists every option in --help', async () => {
    const server = await startServer();
    try {
      for (const n of [1, 2])
        expect((await postContact(server.baseUrl, { ...VALID, message: `Either way ${n}` })).status).toBe(200);
      const withDashes = await npmInbox(server.dataDir, '--', '--json', '--limit', '1', '--mark-read');
      expect(withDashes.code, withDashes.stderr).toBe(0);
      expect(withDashes.stdout.trim().split('\n')).toHaveLength(1);
      const bare = await npmInbox(server.dataDir, '--json', '--unread');
      expect(bare.code, bare.stderr).toBe(0);
      const unread = bare.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { message: string });
      expect(unread.map((entry) => entry.message)).toEqual(['Either way 1']);
      const equals = await npmInbox(server.dataDir, '--json', '--since=1h', '--limit=5');
      expect(equals.code, equals.stderr).toBe(0);
      expect(equals.stdout.trim().split('\n')).toHaveLength(2);
      const apart = await npmInbox(server.dataDir, '--since', '1h');
      expect(apart.code).toBe(1);
      expect(apart.stderr).toContain('npm run inbox -- --since <value>');
      const help = await npmInbox(server.dataDir, '--', '--help');
      expect(help.code).toBe(0);
      for (const option of [
        '--json',
        '--since',
        '--unread',
        '--mark-read',
        '--limit',
        '--sandbox',
        '--redeliver',
        '--help',
      ])
        expect(help.stdout).toContain(option);
    } finally {
      await server.stop();
    }
  });
});
