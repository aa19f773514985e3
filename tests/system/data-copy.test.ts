import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxEntry } from '../../functions/contact/inbox-entry.ts';
import { postContact, readInbox, runInbox, storedInbox, VALID } from '../support/contact.ts';
import { freshDatabaseUrl, HAS_POSTGRES } from '../support/postgres.ts';
import { npmRun } from '../support/npm-run.ts';
import { freshDataDir } from '../support/server.ts';
import { startService, type InProcessService } from '../support/service.ts';
import { receiver, waitFor } from '../support/webhook.ts';

const QUOTAS = { CONTACT_RATE_LIMIT: '1000/600', KEYS_RATE_LIMIT: '100/600' };

const dataCopy = (env: Record<string, string>, ...args: string[]) => npmRun('data:copy', env, ...args);

async function inboxOn(databaseUrl: string, ...args: string[]): Promise<InboxEntry[]> {
  const { code, stdout, stderr } = await npmRun('inbox', { DATABASE_URL: databaseUrl }, '--json', ...args);
  expect(code, stderr).toBe(0);
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as InboxEntry);
}

/** One statement straight against PostgreSQL. */
async function queryPg(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

const countRows = async (url: string) =>
  (
    await queryPg(
      url,
      `SELECT (SELECT COUNT(*) FROM messages)::int AS messages, (SELECT COUNT(*) FROM api_keys)::int AS keys,
         (SELECT COUNT(*) FROM idempotency)::int AS idempotency, (SELECT COUNT(*) FROM app_secrets)::int AS secrets`,
    )
  )[0];

async function createKey(baseUrl: string): Promise<{ key: string; keyId: string }> {
  const response = await fetch(`${baseUrl}/api/v1/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ label: 'before the move' }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { key: string; keyId: string };
}

async function issueToken(baseUrl: string, key: { key: string; keyId: string }): Promise<string> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.keyId, client_secret: key.key }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function keyStatus(baseUrl: string, headers: Record<string, string>): Promise<string | null> {
  const response = await fetch(`${baseUrl}/api/v1/sandbox/ping`, { headers });
  return response.headers.get('x-api-key-status');
}

const idsOf = (entries: InboxEntry[]) => entries.map((entry) => entry.id);

/** A single instance on SQLite, as an owner would have run it before moving up. */
const before = {
  dataDir: '',
  key: { key: '', keyId: '' },
  token: '',
  cursor: '',
  replay: { key: randomUUID(), body: { ...VALID, message: `Sent before the move ${randomUUID()}` } },
  inbox: [] as InboxEntry[],
  sandboxInbox: [] as InboxEntry[],
  spam: [] as InboxEntry[],
};

beforeAll(async () => {
  if (!HAS_POSTGRES) return;
  // The first delivery fails and, with one attempt allowed, marks its message failed; the rest are delivered.
  const hook = await receiver(1);
  const single = await startService({ ...QUOTAS, NOTIFY_WEBHOOK_URL: hook.url, NOTIFY_MAX_ATTEMPTS: '1' });
  before.dataDir = single.dataDir;
  try {
    expect((await postContact(single.baseUrl, { ...VALID, message: 'Delivery fails' })).status).toBe(200);
    await waitFor(
      async () => (await storedInbox(single.dataDir))[0]?.deliveries.webhook?.state === 'failed',
      'a failed delivery',
    );
    expect((await postContact(single.baseUrl, before.replay.body, { key: before.replay.key })).status).toBe(200);
    expect(
      (await postContact(single.baseUrl, { ...VALID, message: 'Trying the sandbox first' }, { query: '?sandbox=true' }))
        .status,
    ).toBe(200);
    const links = ['a', 'b', 'c', 'd'].map((host) => `https://${host}.example`).join(' ');
    expect((await postContact(single.baseUrl, { ...VALID, message: `Spam ${links}` })).status).toBe(200);
    expect((await postContact(single.baseUrl, { ...VALID, message: 'Read by the owner' })).status).toBe(200);
    await hook.accepted(2);
    await waitFor(
      async () => (await storedInbox(single.dataDir)).every((entry) => entry.deliveries.webhook?.state !== 'pending'),
      'every delivery to be recorded',
    );
    await runInbox(single.dataDir, '--mark-read', '--limit', '1');
    before.key = await createKey(single.baseUrl);
    before.token = await issueToken(single.baseUrl, before.key);
    const page = await fetch(`${single.baseUrl}/api/v1/projects?limit=2`);
    before.cursor = ((await page.json()) as { pagination: { nextCursor: string } }).pagination.nextCursor;
  } finally {
    await single.stop();
    hook.close();
  }
  [before.inbox, before.sandboxInbox, before.spam] = await Promise.all([
    readInbox(before.dataDir),
    readInbox(before.dataDir, '--sandbox'),
    readInbox(before.dataDir, '--spam'),
  ]);
});

describe.skipIf(!HAS_POSTGRES)('npm run data:copy', () => {
  let shared: InProcessService | undefined;
  afterAll(() => shared?.stop());

  it('moves a SQLite instance into PostgreSQL: messages, keys, replays, cursors and tokens keep working', async () => {
    expect(before.inbox.map((entry) => [entry.read, entry.deliveries.webhook?.state])).toEqual([
      [true, 'delivered'],
      [false, 'delivered'],
      [false, 'failed'],
    ]);
    expect(before.spam.map((entry) => [entry.folder, entry.spamReasons.length])).toEqual([['spam', 1]]);
    const DATABASE_URL = await freshDatabaseUrl();
    const env = { DATABASE_URL, DATA_DIR: before.dataDir };

    const dry = await dataCopy(env, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/Dry run, nothing written/);
    expect(dry.stdout).toMatch(/messages +5 to copy, 0 already present/);
    expect(await queryPg(DATABASE_URL, "SELECT to_regclass('messages') AS found")).toEqual([{ found: null }]);

    const copy = await dataCopy(env);
    expect(copy.code, copy.stderr).toBe(0);
    expect(copy.stdout).toMatch(/messages +5 copied, 0 already present/);
    expect(copy.stdout).toMatch(/api_keys +1 copied/);
    expect(copy.stdout).toMatch(/idempotency +5 copied/);
    expect(copy.stdout).toMatch(/secrets +3 copied/);
    expect(copy.stdout).toMatch(/jobs +not copied/);

    shared = await startService({ ...QUOTAS, DATABASE_URL });
    expect(await inboxOn(DATABASE_URL)).toEqual(before.inbox);
    expect(await inboxOn(DATABASE_URL, '--sandbox')).toEqual(before.sandboxInbox);
    expect(await inboxOn(DATABASE_URL, '--spam')).toEqual(before.spam);
    expect(await keyStatus(shared.baseUrl, { 'x-api-key': before.key.key })).toBe('valid');
    expect(await keyStatus(shared.baseUrl, { authorization: `Bearer ${before.token}` })).toBe('valid');
    const next = await fetch(`${shared.baseUrl}/api/v1/projects?limit=2&cursor=${encodeURIComponent(before.cursor)}`);
    expect(next.status).toBe(200);
    const replay = await postContact(shared.baseUrl, before.replay.body, { key: before.replay.key });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect((await postContact(shared.baseUrl, { ...VALID, message: 'After the move' })).status).toBe(200);
    // The owner reads the inbox on PostgreSQL now: copied messages move on there.
    const after = await inboxOn(DATABASE_URL, '--unread', '--mark-read');
    expect(after[0]?.message).toBe('After the move');
    const copied = [...idsOf(before.inbox), ...idsOf(before.sandboxInbox), ...idsOf(before.spam)];
    expect(after[0]!.id).toBeGreaterThan(Math.max(...copied));
    await shared.stop();
    shared = undefined;

    const again = await dataCopy(env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^Nothing to copy/);
    expect(again.stdout).toMatch(/messages +0 copied, 5 already present \(2 of them changed since in PostgreSQL/);
    expect(again.stdout).toMatch(/secrets +0 copied, 3 already present/);
  });

  it('copies nothing into a PostgreSQL that other instances have used, naming the table and the id', async () => {
    const DATABASE_URL = await freshDatabaseUrl();
    const other = await startService({ DATABASE_URL });
    try {
      expect((await postContact(other.baseUrl, { ...VALID, message: 'Written by another instance' })).status).toBe(200);
    } finally {
      await other.stop();
    }
    const counts = await countRows(DATABASE_URL);
    const refused = await dataCopy({ DATABASE_URL, DATA_DIR: before.dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/messages id 1\b/);
    expect(refused.stderr).toMatch(/nothing was copied/);
    expect(await countRows(DATABASE_URL)).toEqual(counts);
  });

  it("keeps PostgreSQL's signing secrets with a warning, unless --replace-secrets", async () => {
    const DATABASE_URL = await freshDatabaseUrl();
    await (await startService({ DATABASE_URL })).stop();
    const env = { DATABASE_URL, DATA_DIR: before.dataDir };
    const kept = await dataCopy(env);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toMatch(/secrets +0 copied, 3 already present \(3 of them different: PostgreSQL's kept\)/);
    expect(kept.stderr).toMatch(/cursors issued by the SQLite instance stop verifying/);
    const replaced = await dataCopy(env, '--replace-secrets');
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stdout).toMatch(/secrets +3 copied, 0 already present/);
    const rows = await queryPg(DATABASE_URL, 'SELECT name, value FROM app_secrets ORDER BY name');
    expect(rows).toEqual(
      ['cursor', 'form', 'token'].map((name) => ({
        name,
        value: readFileSync(path.join(before.dataDir, `${name}.key`)),
      })),
    );
  });

  it('explains its options, and exits 1 without DATABASE_URL, without a database or with a newer schema', async () => {
    const newer = freshDataDir();
    const db = new Database(path.join(newer, 'portfolio.db'));
    db.pragma('user_version = 99');
    db.close();
    const DATABASE_URL = 'postgresql://nobody@127.0.0.1:9/none';
    const [help, unset, empty, tooNew] = await Promise.all([
      dataCopy({}, '--help'),
      dataCopy({ DATABASE_URL: '', DATA_DIR: before.dataDir }),
      dataCopy({ DATABASE_URL, DATA_DIR: freshDataDir() }),
      dataCopy({ DATABASE_URL }, '--data-dir', newer),
    ]);
    expect(help.code).toBe(0);
    for (const option of ['--data-dir', '--dry-run', '--replace-secrets', '--help', 'Jobs are not copied'])
      expect(help.stdout).toContain(option);
    expect([unset.code, unset.stderr]).toEqual([1, expect.stringMatching(/DATABASE_URL is not set/)]);
    expect([empty.code, empty.stderr]).toEqual([1, expect.stringMatching(/holds no database/)]);
    expect([tooNew.code, tooNew.stderr]).toEqual([1, expect.stringMatching(/schema version 99, newer than/)]);
  });
});
