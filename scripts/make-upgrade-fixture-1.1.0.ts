// Makes tests/fixtures/upgrade-1.1.0/: the state an owner of release 1.1.0 (commit 73cf64b, the
// commit that says "version 1.1.0") keeps, written by that release's production server and owner
// commands, on SQLite and on PostgreSQL, for tests/system/upgrade-from-1.1.0.test.ts.
//
// It runs on a checkout of the release, with what the release had: its own tests/support, its
// Node.js (20) and its build. Copy it into that checkout's scripts/ folder, then:
//
//   npm ci && npm run build
//   node --import tsx scripts/make-upgrade-fixture-1.1.0.ts <this repository>/tests/fixtures/upgrade-1.1.0
//
// It needs Debian's postgresql-15 and the sqlite3 program. Release 1.1.0 has no mail, spam folder,
// sandbox storage shares or signed form tokens; it notifies the owner by webhook only, and its
// inbox command marks read the messages it shows. Everything goes in through the public API and the
// owner's commands; the files are what the stopped service left (SQLite) and a plain pg_dump
// (PostgreSQL). `expected.json` beside them records what the service answered, what the webhook
// received and what the inbox command listed, as 1.1.0 printed it.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { format, resolveConfig } from 'prettier';
import { npmRun } from '../tests/support/npm-run.ts';
import { startPostgres } from '../tests/support/postgres.ts';
import { freshDataDir, ROOT, startServer, type RunningServer } from '../tests/support/server.ts';

const run = promisify(execFile);
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const OUT = path.resolve(process.argv[2] ?? path.join(ROOT, 'tests', 'fixtures', 'upgrade-1.1.0'));
/** Debian's postgresql-15, as the release's tests/support/postgres.ts uses it. */
const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';

/** A webhook receiver that accepts posts (204) until told to refuse them (500). */
async function startWebhook() {
  const received: Record<string, unknown>[] = [];
  let attempts = 0;
  let refusing = false;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      attempts++;
      if (refusing) {
        res.writeHead(500).end('not now');
        return;
      }
      received.push(JSON.parse(text) as Record<string, unknown>);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    attempts: () => attempts,
    refuse: () => (refusing = true),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(
  server: RunningServer,
  method: 'GET' | 'POST',
  url: string,
  options: { client: string; headers?: Record<string, string>; json?: unknown; form?: Record<string, string> },
): Promise<Answer> {
  const headers: Record<string, string> = { 'x-forwarded-for': options.client, ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const response = await fetch(`${server.baseUrl}${url}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : {} };
}

function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

async function waitFor(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function finishedJob(server: RunningServer, jobId: string, headers: Record<string, string> = {}) {
  let view: Record<string, unknown> = {};
  await waitFor(`job ${jobId}`, async () => {
    view = expectStatus(
      await call(server, 'GET', `/api/v1/jobs/${jobId}`, { client: '192.0.2.1', headers }),
      200,
      jobId,
    ).body;
    return view.status === 'succeeded' || view.status === 'failed';
  });
  return view;
}

const contact = (message: string) => ({ name: 'Grace Hopper', email: 'grace@example.com', message });

/** The inbox as the release's owner command lists it (`npm run inbox -- --json ...`), newest first. */
async function inbox(env: Record<string, string>, ...args: string[]): Promise<unknown[]> {
  const outcome = await npmRun('inbox', env, '--json', ...args);
  if (outcome.code !== 0) throw new Error(`npm run inbox ${args.join(' ')}: ${outcome.stderr}`);
  return outcome.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

async function postContact(server: RunningServer, client: string, body: unknown, headers: Record<string, string> = {}) {
  return expectStatus(
    await call(server, 'POST', '/api/v1/contact', {
      client,
      headers: { 'idempotency-key': randomUUID(), ...headers },
      json: body,
    }),
    200,
    'contact',
  );
}

/** Fills a service through its API, stops it, and records what the owner sees; returns what expected.json holds. */
async function fill(stateEnv: Record<string, string>, dataDir: string): Promise<Record<string, unknown>> {
  const webhook = await startWebhook();
  const server = await startServer(
    {
      ...stateEnv,
      TRUST_PROXY: '1',
      ACCESS_LOG: 'false',
      NOTIFY_WEBHOOK_URL: webhook.url,
      // One attempt before the stop: the retry of a refused post is due a minute later.
      NOTIFY_RETRY_BASE_MS: '60000',
    },
    dataDir,
  );
  try {
    // Secrets: a pagination cursor and an access token, each signed with its own.
    const firstPage = expectStatus(
      await call(server, 'GET', '/api/v1/projects?limit=3', { client: '198.51.100.1' }),
      200,
      'projects',
    );
    const cursor = (firstPage.body.pagination as { nextCursor: string }).nextCursor;

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

    // Live messages, posted to the webhook at once; one with a fixed Idempotency-Key; text beyond ASCII and lines.
    const idempotency = {
      key: randomUUID(),
      payload: contact('Sent once with an Idempotency-Key before the upgrade.'),
    };
    const delivered = [
      contact('A plain message, kept through the upgrade.'),
      contact('Grüße aus Köln — ✓ déjà vu\nSecond line\n\n  indented third line 𝄞'),
    ];
    for (const [index, body] of delivered.entries()) await postContact(server, `203.0.113.${index + 1}`, body);
    const idempotentAnswer = await postContact(server, '203.0.113.9', idempotency.payload, {
      'idempotency-key': idempotency.key,
    });
    await waitFor('three webhook posts', () => webhook.received.length === 3);

    // Sandbox: three messages of the first key, and one of a client without a key.
    const sandboxMessages = [0, 1, 2].map((index) => contact(`Sandbox message ${index} of the fixture key.`));
    for (const body of sandboxMessages)
      await postContact(server, '198.51.100.20', body, { 'x-api-key': String(key.key) });
    await postContact(server, '198.51.100.30', contact('A sandbox message without a key.'), { 'x-sandbox': 'true' });

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

    // Webhook posts left pending: the receiver refuses, each message gets one attempt.
    webhook.refuse();
    const pending = [contact('Written while the webhook refused: pending.'), contact('Also pending at the stop.')];
    for (const [index, body] of pending.entries()) await postContact(server, `203.0.113.${30 + index}`, body);
    await waitFor('a refused attempt for each pending message', () => webhook.attempts() >= 5);

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

    // The owner reads the newest live message: this release's inbox command marks read what it shows.
    const marked = await npmRun('inbox', stateEnv, '--limit', '1', '--mark-read');
    if (marked.code !== 0) throw new Error(marked.stderr);

    return {
      madeBy: {
        version: VERSION,
        commit: (await run('git', ['rev-parse', 'HEAD'], { cwd: ROOT })).stdout.trim(),
        node: process.version,
      },
      stoppedAt: new Date(stoppedAt).toISOString(),
      settings: { TRUST_PROXY: '1' },
      keys: [
        { key: key.key, keyId: key.keyId, label: key.label, client: '198.51.100.20' },
        { key: spareKey.key, keyId: spareKey.keyId, label: spareKey.label ?? null },
      ],
      accessToken: token.access_token,
      cursor,
      idempotency: { ...idempotency, status: idempotentAnswer.status, body: idempotentAnswer.body },
      deliveredMessages: [...delivered, idempotency.payload].map((body) => body.message),
      pendingMessages: pending.map((body) => body.message),
      webhookPosts: webhook.received,
      jobs: { finished: doneJobs, atStop: views },
      inbox: await inbox(stateEnv),
      sandbox: await inbox(stateEnv, '--sandbox'),
    };
  } finally {
    await server.stop();
    await webhook.close();
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
  const database = path.join(dataDir, 'portfolio.db');
  const { stdout } = await run('sqlite3', ['-json', database, 'SELECT status FROM jobs']);
  checkStoppedJobs(JSON.parse(stdout) as { status: string }[]);
  const version = (await run('sqlite3', [database, 'PRAGMA user_version'])).stdout.trim();
  const out = path.join(OUT, 'sqlite');
  // The first step of an upgrade, with this version: a backup before anything else.
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
  await writeExpected(path.join(out, 'expected.json'), { ...expected, schemaVersion: Number(version) });
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
    let version: number;
    try {
      checkStoppedJobs((await client.query<{ status: string }>('SELECT status FROM jobs')).rows);
      version = (await client.query<{ v: number }>('SELECT MAX(version) AS v FROM schema_migrations')).rows[0]!.v;
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
    await writeExpected(path.join(out, 'expected.json'), { ...expected, schemaVersion: version });
    // The service keeps nothing in DATA_DIR on PostgreSQL.
    const left = readdirSync(dataDir);
    if (left.length > 0) throw new Error(`DATA_DIR holds ${left.join(', ')} on PostgreSQL`);
    rmSync(dataDir, { recursive: true, force: true });
  } finally {
    await postgres.destroy();
  }
}

if (VERSION !== '1.1.0') throw new Error(`this checkout is version ${VERSION}: run this on release 1.1.0`);
rmSync(path.join(OUT, 'sqlite'), { recursive: true, force: true });
rmSync(path.join(OUT, 'postgres'), { recursive: true, force: true });
mkdirSync(path.join(OUT, 'sqlite'), { recursive: true });
await sqliteFixture();
await postgresFixture();
process.stdout.write(`Wrote ${OUT} (sqlite, postgres).\n`);
