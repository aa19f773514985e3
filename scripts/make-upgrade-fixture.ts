// Makes tests/fixtures/upgrade-<version>/: the state an owner keeps, written by this checkout's
// production server and owner commands, on SQLite and on PostgreSQL, for the upgrade test
// (tests/system/upgrade-from-1.1.0.test.ts). Run it on the commit the fixture is named after,
// after `npm run build`: `node --import tsx scripts/make-upgrade-fixture.ts`. It needs Debian's
// postgresql-15 (tests/support/postgres.ts) and the sqlite3 program. It fills what main had at
// commit 5cdbe30 (spam folder, mail, sandbox storage shares, form tokens), where it made
// tests/fixtures/upgrade-1.1.0-main-5cdbe30/; release 1.1.0 itself had none of those, and its
// state is made by scripts/make-upgrade-fixture-1.1.0.ts.
//
// Everything goes in through the public API and the owner's commands; the files are what the
// stopped service left (SQLite) and a plain pg_dump (PostgreSQL). `expected.json` beside them
// records what the service answered and what the inbox showed, so the test can compare.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { format, resolveConfig } from 'prettier';
import { npmRun } from '../tests/support/npm-run.ts';
import { POSTGRES_BIN, startPostgres } from '../tests/support/postgres.ts';
import { freshDataDir, ROOT, startServer, type RunningServer } from '../tests/support/server.ts';
import { emailEnv, startMailbox, type Mailbox } from '../tests/support/smtp.ts';
import { waitFor } from '../tests/support/webhook.ts';
import { callAs, type ClientAnswer, type ClientRequest } from '../tests/support/client-call.ts';

const run = promisify(execFile);
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const OUT = path.join(ROOT, 'tests', 'fixtures', `upgrade-${VERSION}`);

/**
 * The smallest sandbox storage share (SANDBOX_STORAGE_BYTES's minimum), so that a share nearly
 * full takes few messages; the test runs with the same value.
 */
const SHARE_BYTES = 65_536;
/** Sandbox messages of the first key: 13 of about 5 KB fill its share without passing it. */
const KEYED_SANDBOX_MESSAGES = 13;

/** The service's settings while the fixture is made (TRUST_PROXY: each client is an X-Forwarded-For address). */
function fixtureEnv(mailbox: Mailbox): Record<string, string> {
  return {
    ...emailEnv(mailbox),
    TRUST_PROXY: '1',
    ACCESS_LOG: 'false',
    // One attempt before the stop: the retry of a refused mail is due a minute later.
    NOTIFY_RETRY_BASE_MS: '60000',
    SANDBOX_STORAGE_BYTES: String(SHARE_BYTES),
  };
}

type Answer = ClientAnswer;

function call(server: RunningServer, method: 'GET' | 'POST', url: string, request: ClientRequest): Promise<Answer> {
  return callAs(server.baseUrl, method, url, request);
}

function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

async function finishedJob(server: RunningServer, jobId: string, headers: Record<string, string> = {}) {
  let view: Record<string, unknown> = {};
  await waitFor(async () => {
    view = expectStatus(
      await call(server, 'GET', `/api/v1/jobs/${jobId}`, { client: '192.0.2.1', headers }),
      200,
      jobId,
    ).body;
    return view.status === 'succeeded' || view.status === 'failed';
  }, `job ${jobId}`);
  return view;
}

/** A contact message body; `padTo` fills the message up to that many characters. */
function contact(message: string, padTo = 0) {
  return {
    name: 'Grace Hopper',
    email: 'grace@example.com',
    message: message.padEnd(padTo, ' and more'),
  };
}

/** The inbox as the owner's command lists it (`npm run inbox -- --json ...`), newest first. */
async function inbox(env: Record<string, string>, ...args: string[]): Promise<unknown[]> {
  const outcome = await npmRun('inbox', env, '--json', ...args);
  if (outcome.code !== 0) throw new Error(`npm run inbox ${args.join(' ')}: ${outcome.stderr}`);
  return outcome.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** Fills a service through its API, stops it, and records what the owner sees; returns what expected.json holds. */
async function fill(stateEnv: Record<string, string>, dataDir: string): Promise<Record<string, unknown>> {
  const mailbox = await startMailbox();
  const server = await startServer({ ...fixtureEnv(mailbox), ...stateEnv }, dataDir);
  try {
    // Secrets: a cursor, an access token and a form token, each signed with its own.
    const firstPage = expectStatus(
      await call(server, 'GET', '/api/v1/projects?limit=3', { client: '198.51.100.1' }),
      200,
      'projects',
    );
    const cursor = (firstPage.body.pagination as { nextCursor: string }).nextCursor;
    const formPage = await fetch(`${server.baseUrl}/contact`);
    const formToken = /name="form_token" value="([^"]+)"/.exec(await formPage.text())?.[1];
    if (formToken === undefined) throw new Error('no form token on /contact');

    // Test keys: one with a label, used for sandbox messages, a token and a job; one never used.
    const key = expectStatus(
      await call(server, 'POST', '/api/v1/keys', { client: '198.51.100.10', json: { label: 'upgrade fixture key' } }),
      201,
      'key',
    ).body;
    const spareKey = expectStatus(
      await call(server, 'POST', '/api/v1/keys', { client: '198.51.100.10', json: {} }),
      201,
      'key',
    ).body;
    const token = expectStatus(
      await call(server, 'POST', '/oauth/token', {
        client: '198.51.100.10',
        form: { grant_type: 'client_credentials', client_id: String(key.keyId), client_secret: String(key.key) },
      }),
      200,
      'token',
    ).body;

    // Live messages, mailed at once; one with a fixed Idempotency-Key; text beyond ASCII and lines.
    const idempotency = {
      key: randomUUID(),
      payload: contact('Sent once with an Idempotency-Key before the upgrade.'),
    };
    const delivered = [
      contact('A plain message, kept through the upgrade.'),
      contact('Grüße aus Köln — ✓ déjà vu\nSecond line\n\n  indented third line 𝄞'),
    ];
    for (const [index, body] of delivered.entries())
      expectStatus(
        await call(server, 'POST', '/api/v1/contact', {
          client: `203.0.113.${index + 1}`,
          headers: { 'idempotency-key': randomUUID() },
          json: body,
        }),
        200,
        'contact',
      );
    const idempotentAnswer = expectStatus(
      await call(server, 'POST', '/api/v1/contact', {
        client: '203.0.113.9',
        headers: { 'idempotency-key': idempotency.key },
        json: idempotency.payload,
      }),
      200,
      'idempotent contact',
    );
    await waitFor(() => mailbox.mails.length === 3, 'three mails');
    const spam = contact(
      `Cheap offers ${Array.from({ length: 6 }, (_, i) => `https://cheap${i}.example/offer`).join(' ')}`,
    );
    expectStatus(
      await call(server, 'POST', '/api/v1/contact', {
        client: '203.0.113.20',
        headers: { 'idempotency-key': randomUUID() },
        json: spam,
      }),
      200,
      'spam',
    );

    // Sandbox: the key's share nearly full, and one message of a client without a key.
    for (let index = 0; index < KEYED_SANDBOX_MESSAGES; index++)
      expectStatus(
        await call(server, 'POST', '/api/v1/contact', {
          client: '198.51.100.20',
          headers: { 'x-api-key': String(key.key), 'idempotency-key': randomUUID() },
          json: contact(`Sandbox message ${index} of the fixture key.`, 5000),
        }),
        200,
        'sandbox contact',
      );
    expectStatus(
      await call(server, 'POST', '/api/v1/contact', {
        client: '198.51.100.30',
        headers: { 'x-sandbox': 'true', 'idempotency-key': randomUUID() },
        json: contact('A sandbox message without a key.'),
      }),
      200,
      'sandbox contact',
    );

    // Finished jobs: live ones, and a sandbox one of the key.
    const doneJobs: Record<string, unknown>[] = [];
    for (const [json, headers] of [
      [{ task: 'stats' }, {}],
      [{ task: 'digest', input: { domain: 'security' } }, {}],
      [{ task: 'stats' }, { 'x-api-key': String(key.key) }],
    ] as const) {
      const created = expectStatus(
        await call(server, 'POST', '/api/v1/jobs', { client: '192.0.2.1', headers, json }),
        202,
        json.task,
      ).body;
      doneJobs.push({
        sandboxKey: 'x-api-key' in headers,
        view: await finishedJob(server, String(created.jobId), headers),
      });
    }

    // The outbox left pending: the mail server refuses, each message gets one attempt.
    mailbox.refuse(Infinity);
    const pending = [contact('Written while the mail server refused: pending.'), contact('Also pending at the stop.')];
    for (const [index, body] of pending.entries())
      expectStatus(
        await call(server, 'POST', '/api/v1/contact', {
          client: `203.0.113.${30 + index}`,
          headers: { 'idempotency-key': randomUUID() },
          json: body,
        }),
        200,
        'contact',
      );
    await waitFor(() => mailbox.attempts() >= 5, 'a refused attempt for each pending message');

    // Jobs of one client at the stop: its one running slot holds a digest, two wait behind it.
    const queued: Record<string, unknown>[] = [];
    for (const task of ['digest', 'stats', 'export'])
      queued.push(
        expectStatus(
          await call(server, 'POST', '/api/v1/jobs', { client: '192.0.2.2', json: { task } }),
          202,
          `${task} job`,
        ).body,
      );
    const views = await Promise.all(
      queued.map(
        async (job) =>
          expectStatus(
            await call(server, 'GET', `/api/v1/jobs/${String(job.jobId)}`, { client: '192.0.2.2' }),
            200,
            'job',
          ).body,
      ),
    );
    await server.stop();
    if (server.process.exitCode !== 0) throw new Error(`the server exited with ${server.process.exitCode}`);
    const stoppedAt = Date.now();
    const statuses = views.map((view) => view.status);
    if (statuses.join() !== 'running,pending,pending')
      throw new Error(`the jobs at the stop were ${statuses.join()}, not running,pending,pending: run it again`);

    // The owner reads the first message (`npm run inbox -- --mark-read <id>`).
    const live = (await inbox(stateEnv)) as { id: number; message: string }[];
    const first = live.find((entry) => entry.message === delivered[0]!.message);
    if (first === undefined) throw new Error('the first message is not in the inbox');
    const marked = await npmRun('inbox', stateEnv, '--mark-read', String(first.id));
    if (marked.code !== 0) throw new Error(marked.stderr);

    return {
      madeBy: { version: VERSION, node: process.version },
      stoppedAt: new Date(stoppedAt).toISOString(),
      settings: { SANDBOX_STORAGE_BYTES: String(SHARE_BYTES), TRUST_PROXY: '1' },
      keys: [
        { key: key.key, keyId: key.keyId, label: key.label, client: '198.51.100.20' },
        { key: spareKey.key, keyId: spareKey.keyId, label: spareKey.label ?? null },
      ],
      accessToken: token.access_token,
      cursor,
      formToken,
      idempotency: { ...idempotency, status: idempotentAnswer.status, body: idempotentAnswer.body },
      deliveredMessages: [...delivered, idempotency.payload].map((body) => body.message),
      pendingMessages: pending.map((body) => body.message),
      jobs: { finished: doneJobs, atStop: views },
      inbox: await inbox(stateEnv),
      spam: await inbox(stateEnv, '--spam'),
      sandbox: await inbox(stateEnv, '--sandbox'),
    };
  } finally {
    await server.stop();
    await mailbox.close();
  }
}

/** expected.json, formatted as the repository's formatter would. */
async function writeExpected(file: string, expected: Record<string, unknown>): Promise<void> {
  writeFileSync(file, await format(JSON.stringify(expected), { ...(await resolveConfig(file)), filepath: file }));
}

/** The jobs table as the stopped service left it, to check that the stop caught the queue as intended. */
function checkStoppedJobs(rows: { status: string }[]): void {
  const counts = rows.reduce<Record<string, number>>(
    (all, row) => ({ ...all, [row.status]: (all[row.status] ?? 0) + 1 }),
    {},
  );
  if (counts.running !== 1 || counts.pending !== 2 || counts.succeeded !== 3)
    throw new Error(`jobs stored at the stop: ${JSON.stringify(counts)}`);
}

async function sqliteFixture(): Promise<void> {
  const dataDir = freshDataDir();
  const expected = await fill({ DATA_DIR: dataDir }, dataDir);
  const { stdout } = await run('sqlite3', ['-json', path.join(dataDir, 'portfolio.db'), 'SELECT status FROM jobs']);
  checkStoppedJobs(JSON.parse(stdout) as { status: string }[]);
  const out = path.join(OUT, 'sqlite');
  // README's first upgrade step, with this version: a backup before anything else.
  const backup = await npmRun('backup', { DATA_DIR: dataDir }, path.join(out, 'portfolio-before-upgrade.db'));
  if (backup.code !== 0) throw new Error(backup.stderr);
  // The database and the secrets; SQLite's WAL (empty after the clean stop) and its shared-memory
  // index are left out, as SQLite makes them again.
  const wal = path.join(dataDir, 'portfolio.db-wal');
  if (existsSync(wal) && statSync(wal).size > 0) throw new Error('the WAL is not empty after the stop');
  cpSync(dataDir, path.join(out, 'data-dir'), {
    recursive: true,
    filter: (source) => !/portfolio\.db-(wal|shm)$/.test(source),
  });
  await writeExpected(path.join(out, 'expected.json'), expected);
  rmSync(dataDir, { recursive: true, force: true });
}

async function postgresFixture(): Promise<void> {
  const postgres = await startPostgres();
  try {
    const url = await postgres.createDatabase();
    const dataDir = freshDataDir();
    const expected = await fill({ DATABASE_URL: url, DATA_DIR: dataDir }, dataDir);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      checkStoppedJobs((await client.query<{ status: string }>('SELECT status FROM jobs')).rows);
    } finally {
      await client.end();
    }
    const out = path.join(OUT, 'postgres');
    mkdirSync(out, { recursive: true });
    await run(path.join(POSTGRES_BIN, 'pg_dump'), [
      '--no-owner',
      '--no-privileges',
      '-f',
      path.join(out, 'portfolio.sql'),
      url,
    ]);
    await writeExpected(path.join(out, 'expected.json'), expected);
    // The service keeps nothing in DATA_DIR on PostgreSQL.
    const left = readdirSync(dataDir);
    if (left.length > 0) throw new Error(`DATA_DIR holds ${left.join(', ')} on PostgreSQL`);
    rmSync(dataDir, { recursive: true, force: true });
  } finally {
    await postgres.destroy();
  }
}

rmSync(path.join(OUT, 'sqlite'), { recursive: true, force: true });
rmSync(path.join(OUT, 'postgres'), { recursive: true, force: true });
mkdirSync(path.join(OUT, 'sqlite'), { recursive: true });
await sqliteFixture();
await postgresFixture();
process.stdout.write(`Wrote ${path.relative(ROOT, OUT)} (sqlite, postgres).\n`);
