import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_DUMP } from '../../functions/cli/backup/owners-path.ts';
import type { InboxEntry as ListedEntry } from '../../functions/contact/inbox-entry.ts';
import { ENV_VARIABLES } from '../../functions/config/env-variables.ts';
import { callAs, type ClientAnswer, type ClientRequest } from '../support/client-call.ts';
import { npmRun } from '../support/npm-run.ts';
import { freshDatabaseUrl, HAS_POSTGRES, POSTGRES_BIN } from '../support/postgres.ts';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';
import { emailEnv, startMailbox, type Mailbox } from '../support/smtp.ts';
import { receiver, waitFor, type Receiver } from '../support/webhook.ts';

/**
 * An owner's state as 1.1.0 left it, upgraded the way docs/operations.md ("Upgrading") says: the
 * new build started on it, the owner's commands run against it. Two states: the one release 1.1.0
 * (commit 73cf64b) wrote, made by scripts/make-upgrade-fixture-1.1.0.ts on that release, and the
 * one main wrote at commit 5cdbe30 (package.json still said 1.1.0, 140 commits later: spam
 * folder, mail, storage shares, form tokens), made by scripts/make-upgrade-fixture.ts. Each
 * engine's `expected.json` holds what that version answered and what its inbox command listed.
 * The fixture is read through the service and the owner's commands only (npm run inbox, backup,
 * restore; psql, pg_dump and pg_restore on PostgreSQL), never through a SQLite driver: the file
 * format is the contract, whichever driver this checkout uses.
 */
type Engine = 'sqlite' | 'postgres';

interface Fixture {
  /** Its folder under tests/fixtures. */
  dir: string;
  /** The schema versions it was written with, where expected.json records them (SQLite's user_version, PostgreSQL's schema_migrations). */
  schemaVersions?: Record<Engine, number>;
  /** How the owner was notified of live messages: the released 1.1.0 had a webhook only. */
  channel: 'webhook' | 'email';
  /** What only main at 5cdbe30 had: the spam folder, sandbox storage shares, signed form tokens. */
  later: boolean;
}

const RELEASE: Fixture = {
  dir: 'upgrade-1.1.0',
  schemaVersions: { sqlite: 4, postgres: 1 },
  channel: 'webhook',
  later: false,
};
const MAIN_5CDBE30: Fixture = { dir: 'upgrade-1.1.0-main-5cdbe30', channel: 'email', later: true };
const fixturePath = (fixture: Fixture, ...parts: string[]) =>
  path.join(ROOT, 'tests', 'fixtures', fixture.dir, ...parts);
const run = promisify(execFile);

interface InboxEntry {
  id: number;
  message: string;
  deliveries: Record<string, { state: string; attempts: number; lastError?: string | null }>;
  [field: string]: unknown;
}

/** A message as release 1.1.0's `npm run inbox -- --json` printed it: one webhook delivery state. */
interface ReleaseInboxEntry extends Pick<
  ListedEntry,
  'id' | 'createdAt' | 'name' | 'email' | 'message' | 'read' | 'sandbox'
> {
  delivery: { state: string; attempts: number; lastError: string | null };
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
  /** A signed contact-page token (main at 5cdbe30 only; the release's form carried an unsigned one). */
  formToken?: string;
  idempotency: {
    key: string;
    payload: { name: string; email: string; message: string };
    status: number;
    body: unknown;
  };
  deliveredMessages: string[];
  pendingMessages: string[];
  jobs: { finished: { sandboxKey: boolean; view: JobView }[]; atStop: JobView[] };
  /** Each listing as this version's inbox command prints it (the release's entries converted by `upgradedEntry`). */
  inbox: InboxEntry[];
  spam: InboxEntry[];
  sandbox: InboxEntry[];
  /** The webhook posts the release made before the stop (the release only). */
  webhookPosts?: Record<string, unknown>[];
}

/**
 * A 1.1.0 release inbox entry as the upgraded inbox command prints it: the schema's upgrade moves
 * the webhook state into the outbox (a delivery only for a message that had one: not a sandbox
 * message, nor one stored with no webhook set), and every message of 1.1.0 is in the inbox folder.
 */
function upgradedEntry(entry: ReleaseInboxEntry): InboxEntry {
  const { delivery, ...rest } = entry;
  const delivered = ['pending', 'delivered', 'failed'].includes(delivery.state);
  return {
    ...rest,
    folder: 'inbox',
    spamReasons: [],
    deliveries: delivered ? { webhook: delivery } : {},
  };
}

function readExpected(fixture: Fixture, engine: Engine): Expected {
  const raw = JSON.parse(readFileSync(fixturePath(fixture, engine, 'expected.json'), 'utf8')) as Expected & {
    schemaVersion?: number;
  };
  if (fixture.schemaVersions !== undefined) expect(raw.schemaVersion).toBe(fixture.schemaVersions[engine]);
  if (fixture.later) return raw;
  const release = raw as unknown as { inbox: ReleaseInboxEntry[]; sandbox: ReleaseInboxEntry[] };
  return { ...raw, inbox: release.inbox.map(upgradedEntry), sandbox: release.sandbox.map(upgradedEntry), spam: [] };
}

/** The test tier's request and contact quotas, as published (count per window). */
const quotaCount = (value: string) => value.split('/')[0];
const TEST_READ_LIMIT = quotaCount(ENV_VARIABLES.TEST_KEY_READ_RATE_LIMIT.default);
const TEST_CONTACT_LIMIT = quotaCount(ENV_VARIABLES.TEST_KEY_CONTACT_RATE_LIMIT.default);

/** Where the upgraded deployment notifies its owner: a mailbox, or a webhook receiver (the release had only that). */
type Notified = { channel: 'email'; mailbox: Mailbox } | { channel: 'webhook'; webhook: Receiver };

/** One upgraded deployment: its service, its environment file, and where its owner is notified. */
interface Deployment {
  engine: Engine;
  expected: Expected;
  server: RunningServer;
  notified: Notified;
  /** The service's settings, as its environment file holds them. */
  settings: Record<string, string>;
  envFile: string;
  /** What every process of the deployment gets besides: the clock of shortly after the fixture's stop. */
  clock: Record<string, string>;
}

/** The texts of the notifications the owner received since the upgrade. */
function notifications(notified: Notified): string[] {
  return notified.channel === 'email'
    ? notified.mailbox.mails.map((mail) => mail.body)
    : notified.webhook.received.map((post) => String(post.body.message));
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
function copiedDataDir(fixture: Fixture): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portfolio-upgrade-'));
  cpSync(fixturePath(fixture, 'sqlite', 'data-dir'), dataDir, { recursive: true });
  chmodSync(dataDir, 0o700);
  for (const file of readdirSync(dataDir)) chmodSync(path.join(dataDir, file), 0o600);
  return dataDir;
}

/** A new database holding the 1.1.0 plain dump, loaded with psql as the dump is meant to be. */
async function restoredDump(fixture: Fixture): Promise<string> {
  const url = await freshDatabaseUrl();
  await run(path.join(POSTGRES_BIN, 'psql'), [
    '-q',
    '-v',
    'ON_ERROR_STOP=1',
    '-d',
    url,
    '-f',
    fixturePath(fixture, 'postgres', 'portfolio.sql'),
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

async function upgrade(fixture: Fixture, engine: Engine): Promise<Deployment> {
  const expected = readExpected(fixture, engine);
  const dataDir = engine === 'sqlite' ? copiedDataDir(fixture) : mkdtempSync(path.join(tmpdir(), 'portfolio-upgrade-'));
  const state: Record<string, string> = engine === 'sqlite' ? {} : { DATABASE_URL: await restoredDump(fixture) };
  const notified: Notified =
    fixture.channel === 'email'
      ? { channel: 'email', mailbox: await startMailbox() }
      : { channel: 'webhook', webhook: await receiver(0) };
  const settings = {
    DATA_DIR: dataDir,
    ...state,
    ...(notified.channel === 'email' ? emailEnv(notified.mailbox) : { NOTIFY_WEBHOOK_URL: notified.webhook.url }),
    // The settings the fixture was made with; a short lease so that a job left running is claimed again soon.
    ...expected.settings,
    JOB_LEASE_SECONDS: '2',
  };
  const clock = clockAfter(expected.stoppedAt);
  const server = await startServer({ ...settings, ...clock, ACCESS_LOG: 'false' }, dataDir);
  return { engine, expected, server, notified, settings, envFile: writeEnvFile(settings), clock };
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

/** A request from client `client`, by default one address for the whole test. */
function call(
  deployment: Deployment,
  method: 'GET' | 'POST',
  url: string,
  request: Partial<ClientRequest> = {},
): Promise<ClientAnswer> {
  return callAs(deployment.server.baseUrl, method, url, { client: '192.0.2.50', ...request });
}

/** The inbox as 1.1.0 listed it, except the deliveries that were pending then (the next test sends them). */
function withoutPendingDeliveries(entries: readonly InboxEntry[], pending: readonly string[]) {
  return entries.map((entry) =>
    pending.includes(entry.message) ? { ...entry, deliveries: expect.anything() as unknown } : entry,
  );
}

const ENGINES: Engine[] = HAS_POSTGRES ? ['sqlite', 'postgres'] : ['sqlite'];
const CASES = [RELEASE, MAIN_5CDBE30].flatMap((fixture) => ENGINES.map((engine) => ({ fixture, engine })));

describe.each(CASES)('an owner upgrading $fixture.dir on $engine', ({ fixture, engine }) => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await upgrade(fixture, engine);
  });
  afterAll(async () => {
    await deployment?.server.stop();
    if (deployment?.notified.channel === 'email') await deployment.notified.mailbox.close();
    if (deployment?.notified.channel === 'webhook') deployment.notified.webhook.close();
  });

  it('finds every message in the inbox command: text, read mark, deliveries, sandbox (and spam where it had one)', async () => {
    const { expected } = deployment;
    expect(expected.inbox).toHaveLength(5);
    expect(expected.inbox.filter((entry) => entry.read)).toHaveLength(1);
    expect(await inbox(deployment)).toMatchObject(withoutPendingDeliveries(expected.inbox, expected.pendingMessages));
    expect(await inbox(deployment, '--spam')).toMatchObject(expected.spam);
    expect(expected.spam).toHaveLength(fixture.later ? 1 : 0);
    expect(expected.sandbox).toHaveLength(fixture.later ? 14 : 4);
    expect(await inbox(deployment, '--sandbox')).toMatchObject(expected.sandbox);
  });

  it(`sends what was pending in the outbox by ${fixture.channel}, once each, and nothing 1.1.0 had delivered`, async () => {
    const { notified, expected } = deployment;
    const sent = () =>
      notifications(notified).map((text) => expected.pendingMessages.find((pending) => text.includes(pending)));
    await waitFor(() => sent().length >= expected.pendingMessages.length, 'the pending notifications');
    expect(sent().sort()).toEqual([...expected.pendingMessages].sort());
    const entries = await inbox(deployment);
    for (const text of expected.pendingMessages)
      expect(entries.find((entry) => entry.message === text)?.deliveries[fixture.channel]).toMatchObject({
        state: 'delivered',
        attempts: 2,
      });
    if (notified.channel === 'webhook') {
      // The post carries the message as 1.1.0 stored it (its id, sender and time), with every
      // field of the posts 1.1.0 made, so a receiver written for 1.1.0 still reads it.
      const [before] = expected.webhookPosts ?? [];
      expect(before).toBeDefined();
      for (const post of notified.webhook.received) {
        expect(Object.keys(post.body)).toEqual(expect.arrayContaining(Object.keys(before!)));
        expect(post.body.type).toBe(before!.type);
        const entry = expected.inbox.find((stored) => stored.id === post.body.id);
        expect(post.body).toMatchObject({
          message: entry?.message,
          name: entry?.name,
          email: entry?.email,
          createdAt: entry?.createdAt,
        });
      }
    }
    expect(notifications(notified)).toHaveLength(expected.pendingMessages.length);
  });

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

  it('keeps the signing secrets: the cursor (and the form token, where it had one) 1.1.0 signed still verify', async () => {
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
    expect(expected.formToken === undefined).toBe(!fixture.later);
    if (expected.formToken === undefined) return;

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

  it.runIf(fixture.later)(
    'keeps each sandbox storage share: one more message of the nearly full key drops its oldest',
    async () => {
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
    },
  );

  it('keeps finished jobs with their results, runs the ones that waited, and settles the one the stop cut off', async () => {
    const { expected } = deployment;
    const [key] = expected.keys;
    expect(expected.jobs.finished).toHaveLength(3);
    for (const { sandboxKey, view } of expected.jobs.finished) {
      const headers: Record<string, string> = sandboxKey ? { 'x-api-key': key!.key } : {};
      const now = await call(deployment, 'GET', `/api/v1/jobs/${view.jobId}`, { headers });
      expect([now.status, now.body]).toEqual([200, view]);
      if (sandboxKey) expect((await call(deployment, 'GET', `/api/v1/jobs/${view.jobId}`)).status).toBe(404);
    }
    const [cutOff, ...waiting] = expected.jobs.atStop;
    expect([cutOff!.status, ...waiting.map((job) => job.status)]).toEqual(['running', 'pending', 'pending']);
    const settled = new Map<string, Record<string, unknown>>();
    await waitFor(async () => {
      for (const job of expected.jobs.atStop) {
        const now = await call(deployment, 'GET', `/api/v1/jobs/${job.jobId}`);
        expect(now.status).toBe(200);
        if (now.body.status === 'succeeded' || now.body.status === 'failed') settled.set(job.jobId, now.body);
      }
      return settled.size === expected.jobs.atStop.length;
    }, 'the jobs of the stop');
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
      const before = fixturePath(fixture, 'sqlite', 'portfolio-before-upgrade.db');
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
