import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_DUMP } from '../../functions/cli/backup/owners-path.ts';
import { ENV_VARIABLES } from '../../functions/config/env-variables.ts';
import { npmRun } from '../support/npm-run.ts';
import { freshDatabaseUrl, HAS_POSTGRES, POSTGRES_BIN } from '../support/postgres.ts';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';
import { emailEnv, startMailbox, type Mailbox } from '../support/smtp.ts';

/**
 * An owner's state as release 1.1.0 left it (tests/fixtures/upgrade-1.1.0, made by
 * scripts/make-upgrade-fixture.ts on that release), upgraded the way docs/operations.md
 * ("Upgrading") says: the new build started on it, the owner's commands run against it. Each
 * engine's `expected.json` holds what 1.1.0 answered and what its inbox command listed. The
 * fixture is read through the service and the owner's commands only (npm run inbox, backup,
 * restore; psql, pg_dump and pg_restore on PostgreSQL), never through a SQLite driver: the file
 * format is the contract, whichever driver this checkout uses.
 */
const FIXTURE = path.join(ROOT, 'tests', 'fixtures', 'upgrade-1.1.0');
const run = promisify(execFile);

interface InboxEntry {
  id: number;
  message: string;
  deliveries: Record<string, { state: string; attempts: number }>;
  [field: string]: unknown;
}

interface JobView {
  jobId: string;
  task: string;
  status: string;
  result: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
}

/** What 1.1.0 answered while the fixture was made, and what its inbox command listed after the stop. */
interface Expected {
  stoppedAt: string;
  settings: Record<string, string>;
  keys: { key: string; keyId: string; label: string | null; client?: string }[];
  accessToken: string;
  cursor: string;
  formToken: string;
  idempotency: {
    key: string;
    payload: { name: string; email: string; message: string };
    status: number;
    body: unknown;
  };
  deliveredMessages: string[];
  pendingMessages: string[];
  jobs: { finished: { sandboxKey: boolean; view: JobView }[]; atStop: JobView[] };
  inbox: InboxEntry[];
  spam: InboxEntry[];
  sandbox: InboxEntry[];
}

type Engine = 'sqlite' | 'postgres';

/** The test tier's request and contact quotas, as published (count per window). */
const quotaCount = (value: string) => value.split('/')[0];
const TEST_READ_LIMIT = quotaCount(ENV_VARIABLES.TEST_KEY_READ_RATE_LIMIT.default);
const TEST_CONTACT_LIMIT = quotaCount(ENV_VARIABLES.TEST_KEY_CONTACT_RATE_LIMIT.default);

/** One upgraded deployment: its service, its environment file, and the mailbox its owner is mailed at. */
interface Deployment {
  engine: Engine;
  expected: Expected;
  server: RunningServer;
  mailbox: Mailbox;
  /** The service's settings, as its environment file holds them. */
  settings: Record<string, string>;
  envFile: string;
  /** What every process of the deployment gets besides: the clock of shortly after the fixture's stop. */
  clock: Record<string, string>;
}

/**
 * The processes of the deployment see the time ten minutes after 1.1.0 stopped (shifted-clock.mjs):
 * what the state keeps for a day (idempotency records, jobs) or an hour (access tokens) is then as
 * an owner upgrading that day would find it, whenever this test runs.
 */
function clockAfter(stoppedAt: string): Record<string, string> {
  const shift = Date.parse(stoppedAt) + 10 * 60_000 - Date.now();
  const preload = pathToFileURL(path.join(ROOT, 'tests', 'support', 'shifted-clock.mjs')).href;
  return {
    TEST_CLOCK_SHIFT_MS: String(shift),
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${preload}`.trim(),
  };
}

/** The 1.1.0 data directory, copied as an owner's is kept: the directory 0700, its files 0600. */
function copiedDataDir(): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portfolio-upgrade-'));
  cpSync(path.join(FIXTURE, 'sqlite', 'data-dir'), dataDir, { recursive: true });
  chmodSync(dataDir, 0o700);
  for (const file of readdirSync(dataDir)) chmodSync(path.join(dataDir, file), 0o600);
  return dataDir;
}

/** A new database holding the 1.1.0 plain dump, loaded with psql as the dump is meant to be. */
async function restoredDump(): Promise<string> {
  const url = await freshDatabaseUrl();
  await run(path.join(POSTGRES_BIN, 'psql'), [
    '-q',
    '-v',
    'ON_ERROR_STOP=1',
    '-d',
    url,
    '-f',
    path.join(FIXTURE, 'postgres', 'portfolio.sql'),
  ]);
  return url;
}

/** KEY="value" lines, as the deploy's environment file holds the service's settings. */
function writeEnvFile(settings: Record<string, string>): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'portfolio-env-')), 'portfolio.env');
  writeFileSync(
    file,
    Object.entries(settings)
      .map(([name, value]) => `${name}="${value}"\n`)
      .join(''),
    { mode: 0o600 },
  );
  return file;
}

async function upgrade(engine: Engine): Promise<Deployment> {
  const expected = JSON.parse(readFileSync(path.join(FIXTURE, engine, 'expected.json'), 'utf8')) as Expected;
  const dataDir = engine === 'sqlite' ? copiedDataDir() : mkdtempSync(path.join(tmpdir(), 'portfolio-upgrade-'));
  const state: Record<string, string> = engine === 'sqlite' ? {} : { DATABASE_URL: await restoredDump() };
  const mailbox = await startMailbox();
  const settings = {
    DATA_DIR: dataDir,
    ...state,
    ...emailEnv(mailbox),
    // The settings the fixture was made with; a short lease so that a job left running is claimed again soon.
    ...expected.settings,
    JOB_LEASE_SECONDS: '2',
  };
  const clock = clockAfter(expected.stoppedAt);
  const server = await startServer({ ...settings, ...clock, ACCESS_LOG: 'false' }, dataDir);
  return { engine, expected, server, mailbox, settings, envFile: writeEnvFile(settings), clock };
}

/** `npm run inbox -- --env-file <file> --json ...`, as the owner runs it on the server. */
async function inbox(deployment: Deployment, ...args: string[]): Promise<InboxEntry[]> {
  const outcome = await npmRun('inbox', deployment.clock, '--env-file', deployment.envFile, '--json', ...args);
  expect(outcome.code, outcome.stderr).toBe(0);
  return parseInbox(outcome.stdout);
}

function parseInbox(stdout: string): InboxEntry[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as InboxEntry);
}

/** A request from client `client` (the deployment trusts one proxy: X-Forwarded-For is the client). */
async function call(
  deployment: Deployment,
  method: 'GET' | 'POST',
  url: string,
  options: { client?: string; headers?: Record<string, string>; json?: unknown; form?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { 'x-forwarded-for': options.client ?? '192.0.2.50', ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const response = await fetch(`${deployment.server.baseUrl}${url}`, { method, headers, body });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

/** Polls until `check` holds; the deadline only catches a hang. */
async function eventually(what: string, check: () => Promise<boolean> | boolean, deadlineMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + deadlineMs; Date.now() < deadline;) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** The inbox as 1.1.0 listed it, except the deliveries that were pending then (the next test sends them). */
function withoutPendingDeliveries(entries: readonly InboxEntry[], pending: readonly string[]) {
  return entries.map((entry) =>
    pending.includes(entry.message) ? { ...entry, deliveries: { email: expect.anything() as unknown } } : entry,
  );
}

const ENGINES: Engine[] = HAS_POSTGRES ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(ENGINES)('an owner upgrading from 1.1.0 on %s', (engine) => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await upgrade(engine);
  });
  afterAll(async () => {
    await deployment?.server.stop();
    await deployment?.mailbox.close();
  });

  it('finds every message in the inbox command: text, folder, read mark, deliveries, sandbox and spam', async () => {
    const { expected } = deployment;
    expect(expected.inbox).toHaveLength(5);
    expect(await inbox(deployment)).toMatchObject(withoutPendingDeliveries(expected.inbox, expected.pendingMessages));
    expect(await inbox(deployment, '--spam')).toMatchObject(expected.spam);
    expect(expected.sandbox).toHaveLength(14);
    expect(await inbox(deployment, '--sandbox')).toMatchObject(expected.sandbox);
  });

  it('mails what was pending in the outbox, once each, and nothing 1.1.0 had delivered', async () => {
    const { mailbox, expected } = deployment;
    const mailed = () => mailbox.mails.map((mail) => expected.pendingMessages.find((text) => mail.body.includes(text)));
    // On PostgreSQL they may take a minute: the first round at start claims every due delivery
    // but sends one (CLAIM_DUE in functions/state/postgres/pg-message-store.ts rescans its
    // LIMIT subquery per row), so the others wait until that claim runs out.
    await eventually('the pending mails', () => mailbox.mails.length >= expected.pendingMessages.length, 240_000);
    expect(mailed().sort()).toEqual([...expected.pendingMessages].sort());
    const entries = await inbox(deployment);
    for (const text of expected.pendingMessages)
      expect(entries.find((entry) => entry.message === text)?.deliveries.email).toMatchObject({
        state: 'delivered',
        attempts: 2,
      });
    expect(mailbox.mails).toHaveLength(expected.pendingMessages.length);
  }, 300_000);

  it('still knows each test key, in the test tier with its quotas, and the access token 1.1.0 issued', async () => {
    const { expected } = deployment;
    const keyed = [
      ...expected.keys.map((key) => ({ 'x-api-key': key.key })),
      { authorization: `Bearer ${expected.accessToken}` },
    ];
    for (const headers of keyed) {
      const ping = await call(deployment, 'GET', '/api/v1/sandbox/ping', { headers });
      expect([ping.status, ping.body.sandbox], JSON.stringify(headers)).toEqual([200, true]);
      expect(ping.headers.get('x-api-key-status')).toBe('valid');
      expect(ping.headers.get('x-quota-tier')).toBe('test');
      expect(ping.headers.get('ratelimit-limit')).toBe(TEST_READ_LIMIT);
    }
    const unknown = await call(deployment, 'GET', '/api/v1/sandbox/ping', {
      headers: { 'x-api-key': `pk_test_${'A'.repeat(43)}` },
    });
    expect(unknown.headers.get('x-api-key-status')).toBe('invalid');
    const [first] = expected.keys;
    const token = await call(deployment, 'POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: first!.keyId, client_secret: first!.key },
    });
    expect(token.status).toBe(200);
  });

  it('keeps the signing secrets: the cursor and the form token 1.1.0 signed still verify', async () => {
    const { expected } = deployment;
    const all = await call(deployment, 'GET', '/api/v1/projects?limit=50');
    const slugs = (all.body.data as { slug: string }[]).map((project) => project.slug);
    const next = await call(
      deployment,
      'GET',
      `/api/v1/projects?limit=3&cursor=${encodeURIComponent(expected.cursor)}`,
    );
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect((next.body.data as { slug: string }[]).map((project) => project.slug)).toEqual(slugs.slice(3, 6));

    // A visitor who opened the contact page before the upgrade and sends it after: not spam.
    const message = `Written on a page served by 1.1.0 ${randomUUID()}`;
    const posted = await call(deployment, 'POST', '/api/v1/contact', {
      client: '203.0.113.60',
      headers: { 'idempotency-key': randomUUID() },
      json: { name: 'Ada', email: 'ada@example.com', message, form: { token: expected.formToken, honeypot: '' } },
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect((await inbox(deployment)).find((entry) => entry.message === message)).toMatchObject({
      folder: 'inbox',
      spamReasons: [],
    });
  });

  it('replays the answer 1.1.0 gave to an Idempotency-Key, and refuses the key with another payload', async () => {
    const { idempotency } = deployment.expected;
    const replay = await call(deployment, 'POST', '/api/v1/contact', {
      client: '203.0.113.61',
      headers: { 'idempotency-key': idempotency.key },
      json: idempotency.payload,
    });
    expect([replay.status, replay.body, replay.headers.get('idempotent-replayed')]).toEqual([
      idempotency.status,
      idempotency.body,
      'true',
    ]);
    const other = await call(deployment, 'POST', '/api/v1/contact', {
      client: '203.0.113.62',
      headers: { 'idempotency-key': idempotency.key },
      json: { ...idempotency.payload, message: 'Another message under the same key.' },
    });
    expect(other.status).toBe(422);
    const stored = (await inbox(deployment)).filter((entry) => entry.message === idempotency.payload.message);
    expect(stored).toHaveLength(1);
  });

  it('keeps each sandbox storage share: one more message of the nearly full key drops its oldest', async () => {
    const { expected } = deployment;
    const [key] = expected.keys;
    const keyed = expected.sandbox.filter((entry) => entry.message.startsWith('Sandbox message '));
    const oldest = keyed.at(-1)!;
    const message = `Sandbox message after the upgrade ${randomUUID()}`.padEnd(5000, ' and more');
    const posted = await call(deployment, 'POST', '/api/v1/contact', {
      client: key!.client,
      headers: { 'x-api-key': key!.key, 'idempotency-key': randomUUID() },
      json: { name: 'Grace Hopper', email: 'grace@example.com', message },
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.headers.get('ratelimit-limit')).toBe(TEST_CONTACT_LIMIT);
    const sandbox = (await inbox(deployment, '--sandbox')).map((entry) => entry.message);
    expect(sandbox).toEqual([
      message,
      ...expected.sandbox.map((entry) => entry.message).filter((text) => text !== oldest.message),
    ]);
  });

  it('keeps finished jobs with their results, runs the ones that waited, and settles the one the stop cut off', async () => {
    const { expected } = deployment;
    const [key] = expected.keys;
    for (const { sandboxKey, view } of expected.jobs.finished) {
      const headers: Record<string, string> = sandboxKey ? { 'x-api-key': key!.key } : {};
      const now = await call(deployment, 'GET', `/api/v1/jobs/${view.jobId}`, { headers });
      expect([now.status, now.body]).toEqual([200, view]);
      if (sandboxKey) expect((await call(deployment, 'GET', `/api/v1/jobs/${view.jobId}`)).status).toBe(404);
    }
    const [cutOff, ...waiting] = expected.jobs.atStop;
    expect([cutOff!.status, ...waiting.map((job) => job.status)]).toEqual(['running', 'pending', 'pending']);
    const settled = new Map<string, Record<string, unknown>>();
    await eventually('the jobs of the stop', async () => {
      for (const job of expected.jobs.atStop) {
        const now = await call(deployment, 'GET', `/api/v1/jobs/${job.jobId}`);
        expect(now.status).toBe(200);
        if (now.body.status === 'succeeded' || now.body.status === 'failed') settled.set(job.jobId, now.body);
      }
      return settled.size === expected.jobs.atStop.length;
    });
    for (const job of waiting) expect(settled.get(job.jobId)).toMatchObject({ status: 'succeeded', task: job.task });
    expect(settled.get(waiting[0]!.jobId)?.result).toMatchObject({ total: expect.any(Number) as unknown });
    // SQLite has one process: the jobs the last one left running are failed at start. On
    // PostgreSQL another instance may hold them: the job is claimed again once its lease passed.
    expect(settled.get(cutOff!.jobId)).toMatchObject(
      engine === 'sqlite'
        ? { status: 'failed', error: { code: 'interrupted' } }
        : { status: 'succeeded', result: { markdown: expect.stringContaining('# Portfolio digest') as unknown } },
    );
  });

  it('backs up and restores the upgraded state, and restores the backup 1.1.0 made before the upgrade', async () => {
    const upgraded = {
      inbox: await inbox(deployment),
      sandbox: await inbox(deployment, '--sandbox'),
      spam: await inbox(deployment, '--spam'),
    };
    const listing = async (env: Record<string, string>) => ({
      inbox: parseInbox((await npmRun('inbox', { ...deployment.clock, ...env }, '--json')).stdout),
      sandbox: parseInbox((await npmRun('inbox', { ...deployment.clock, ...env }, '--json', '--sandbox')).stdout),
      spam: parseInbox((await npmRun('inbox', { ...deployment.clock, ...env }, '--json', '--spam')).stdout),
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-upgrade-backup-'));
    if (engine === 'sqlite') {
      const file = path.join(dir, 'after-upgrade.db');
      const backup = await npmRun('backup', deployment.clock, '--env-file', deployment.envFile, file);
      expect(backup.code, backup.stderr).toBe(0);
      const restoredDir = path.join(dir, 'restored');
      const restore = await npmRun('restore', { ...deployment.clock, DATA_DIR: restoredDir }, file);
      expect(restore.code, restore.stderr).toBe(0);
      expect(await listing({ DATA_DIR: restoredDir })).toEqual(upgraded);

      // Rolling back: the backup 1.1.0 made as the first step of the upgrade goes back in.
      const beforeDir = path.join(dir, 'before-upgrade');
      const before = path.join(FIXTURE, 'sqlite', 'portfolio-before-upgrade.db');
      const restoreBefore = await npmRun('restore', { ...deployment.clock, DATA_DIR: beforeDir }, before);
      expect(restoreBefore.code, restoreBefore.stderr).toBe(0);
      const { expected } = deployment;
      expect(await listing({ DATA_DIR: beforeDir })).toMatchObject({
        inbox: expected.inbox,
        sandbox: expected.sandbox,
        spam: expected.spam,
      });
    } else {
      // docs/operations.md, "Backups": pg_dump under umask 077, pg_restore into a new database.
      await run('sh', ['-c', PG_DUMP], {
        cwd: dir,
        env: { ...process.env, DATABASE_URL: deployment.settings.DATABASE_URL },
      });
      const restoredUrl = await freshDatabaseUrl();
      await run('pg_restore', ['--no-owner', '-d', restoredUrl, path.join(dir, 'portfolio.dump')]);
      expect(await listing({ DATABASE_URL: restoredUrl, DATA_DIR: dir })).toEqual(upgraded);
    }
  });
});
