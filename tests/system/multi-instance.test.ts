import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContact, readInbox, storedInbox, VALID } from '../support/contact.ts';
import {
  claimLeaseEnd,
  countByText,
  slowContactPost,
  startInstance,
  tally,
  type SharedServers,
} from '../support/instances.ts';
import { createdSchema, createJob, pollUntilFinished } from '../support/jobs.ts';
import { HAS_POSTGRES, startPostgres, type ThrowawayPostgres } from '../support/postgres.ts';
import { queryState } from '../support/raw-state.ts';
import { HAS_REDIS, startRedis, type ThrowawayRedis } from '../support/redis.ts';
import { startExpectingFailure, startServer, type RunningServer } from '../support/server.ts';
import { receiver, waitFor, type Receiver } from '../support/webhook.ts';

/**
 * Two production servers, A and B, behind one imaginary load balancer: same SITE_URL, one
 * PostgreSQL and one Redis of this file's own, a DATA_DIR each. Whatever one instance made or
 * holds, the other honours: every check goes over HTTP, and the stored state is read only to
 * see what was stored (or, for a lease, until when).
 */
describe.skipIf(!HAS_POSTGRES || !HAS_REDIS)('several instances behave as one service', () => {
  let postgres: ThrowawayPostgres;
  let redis: ThrowawayRedis;
  let shared: SharedServers;
  let hook: Receiver;
  let a: RunningServer;
  let b: RunningServer;
  /** Every instance started here, so afterAll stops the ones a test left running. */
  const started: RunningServer[] = [];

  /**
   * Quotas out of the way (they have their own test), TRUST_PROXY so that X-Forwarded-For tells
   * job clients apart, a request timeout of 3 s (so a contact claim's lease is 8 s), one job
   * slot for the whole service, and a lease long enough that a frozen instance keeps its job.
   */
  const env = () => ({
    READ_RATE_LIMIT: '100000/60',
    CONTACT_RATE_LIMIT: '100000/600',
    KEYS_RATE_LIMIT: '1000/3600',
    TRUST_PROXY: '1',
    HEADERS_TIMEOUT_MS: '1000',
    REQUEST_TIMEOUT_MS: '3000',
    JOB_CONCURRENCY: '1',
    JOB_LEASE_SECONDS: '30',
    NOTIFY_WEBHOOK_URL: hook.url,
    NOTIFY_RETRY_BASE_MS: '200',
  });

  async function start(extra: Record<string, string> = {}, dataDir?: string, servers = shared) {
    const instance = await startInstance(servers, { ...env(), ...extra }, dataDir);
    started.push(instance);
    return instance;
  }

  beforeAll(async () => {
    [postgres, redis, hook] = await Promise.all([startPostgres(), startRedis(), receiver(0)]);
    shared = { DATABASE_URL: await postgres.createDatabase(), REDIS_URL: redis.url };
    [a, b] = await Promise.all([start(), start()]);
  });
  afterAll(async () => {
    await Promise.all(started.map((instance) => instance.stop('SIGKILL')));
    hook?.close();
    await Promise.all([postgres?.destroy(), redis?.stop()]);
  });

  async function getJson(instance: RunningServer, path: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${instance.baseUrl}${path}`, { headers });
    return { response, body: (await response.json()) as Record<string, unknown> };
  }

  it('says in its start-up line that state and quotas are shared', () => {
    for (const instance of [a, b]) {
      const listening = instance.logLines.find((line) => line.message === 'listening');
      expect(listening?.storage).toMatch(
        /^postgresql \(postgresql:\/\/postgres@127\.0\.0\.1:\d+\/test_\w+(\?connect_timeout=\d+)?\)$/,
      );
      expect(listening?.quotas).toBe('shared (Redis; contact, keys and form tokens in PostgreSQL while Redis is down)');
      expect(listening?.warning).toBeUndefined();
    }
  });

  it('warns in its start-up line when the read quota is not shared (DATABASE_URL without REDIS_URL)', async () => {
    const lone = await startServer({ ...env(), DATABASE_URL: shared.DATABASE_URL, REDIS_URL: '' });
    started.push(lone);
    const listening = lone.logLines.find((line) => line.message === 'listening');
    expect(listening?.storage).toMatch(/^postgresql /);
    expect(listening?.quotas).toBe('reads this instance only; contact, keys and form tokens shared (PostgreSQL)');
    expect(listening?.warning).toContain('without REDIS_URL');
    expect(listening?.warning).toContain('n times the read quota');
  });

  it('honours on B a cursor, a test key and an OAuth token made on A', async () => {
    const first = await getJson(a, '/api/v1/projects?limit=5');
    const cursor = (first.body.pagination as { nextCursor: string | null }).nextCursor;
    expect(cursor).not.toBeNull();
    const next = `/api/v1/projects?limit=5&cursor=${encodeURIComponent(cursor!)}`;
    const [onA, onB] = await Promise.all([getJson(a, next), getJson(b, next)]);
    expect(onB.response.status, JSON.stringify(onB.body)).toBe(200);
    expect(onB.body).toEqual(onA.body);

    const made = await fetch(`${a.baseUrl}/api/v1/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(made.status).toBe(201);
    const key = (await made.json()) as { key: string; keyId: string };
    const keyed = await getJson(b, '/api/v1/sandbox/ping', { 'x-api-key': key.key });
    expect(keyed.response.headers.get('x-api-key-status')).toBe('valid');
    expect(keyed.response.headers.get('x-quota-tier')).toBe('test');

    const issued = await fetch(`${a.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.keyId, client_secret: key.key }),
    });
    expect(issued.status).toBe(200);
    const token = (await issued.json()) as { access_token: string };
    const bearer = await getJson(b, '/api/v1/sandbox/ping', { authorization: `Bearer ${token.access_token}` });
    expect(bearer.response.headers.get('x-api-key-status')).toBe('valid');
    expect(bearer.body).toEqual({ pong: true, sandbox: true });
  });

  it('replays a contact answer on B, refuses the key with another body there, and stores one message from 20 racing posts', async () => {
    const key = randomUUID();
    const body = { ...VALID, message: `Replayed across instances ${key}` };
    const fresh = await postContact(a.baseUrl, body, { key });
    expect([fresh.status, fresh.headers.get('idempotent-replayed')]).toEqual([200, null]);
    const replay = await postContact(b.baseUrl, body, { key });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(replay.body).toEqual(fresh.body);
    const reused = await postContact(b.baseUrl, { ...body, message: 'Another message' }, { key });
    expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused']);

    const raceKey = randomUUID();
    const raced = { ...VALID, message: `Raced across instances ${raceKey}` };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postContact((i % 2 === 0 ? a : b).baseUrl, raced, { key: raceKey })),
    );
    const kinds = answers.map((answer) =>
      answer.status === 200
        ? answer.headers.get('idempotent-replayed') === 'true'
          ? 'replay'
          : 'fresh'
        : `${answer.status} ${String(answer.body.code)}`,
    );
    expect(kinds.filter((kind) => kind === 'fresh')).toHaveLength(1);
    expect(kinds.filter((kind) => !['fresh', 'replay', '409 idempotency_request_in_progress'].includes(kind))).toEqual(
      [],
    );
    const counts = countByText(await storedInbox(a.dataDir), [body.message, raced.message]);
    expect(Object.fromEntries(counts)).toEqual({ [body.message]: 1, [raced.message]: 1 });
  });

  it('answers 409 on every instance while the first request of a key is in flight on A, and its answer after', async () => {
    const key = randomUUID();
    const body = JSON.stringify({ ...VALID, message: `In flight on A ${key}` });
    const slow = await slowContactPost(a.baseUrl, key, body);
    // A claims the key as soon as it has the headers, before it reads the body.
    await waitFor(async () => (await claimLeaseEnd(a.dataDir, key)) !== undefined, 'the claim of the slow post');
    for (const instance of [b, a]) {
      const concurrent = await postContact(instance.baseUrl, JSON.parse(body), { key });
      expect([concurrent.status, concurrent.body.code]).toEqual([409, 'idempotency_request_in_progress']);
      expect(concurrent.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(await slow.finish()).toMatch(/^HTTP\/1\.1 200/);
    const after = await postContact(b.baseUrl, JSON.parse(body), { key });
    expect([after.status, after.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
  });

  it("keeps a dead instance's claim through another instance's start, and releases it after its lease", async () => {
    const key = randomUUID();
    const text = `Claimed by an instance that died ${key}`;
    const slow = await slowContactPost(a.baseUrl, key, JSON.stringify({ ...VALID, message: text }));
    let leaseEnd: number | undefined;
    await waitFor(async () => (leaseEnd = await claimLeaseEnd(a.dataDir, key)) !== undefined, 'the claim');
    await a.stop('SIGKILL');
    slow.socket.destroy();
    // An instance starting (A again, on its own DATA_DIR) must not free claims: another
    // instance's request could be holding one.
    a = await start({}, a.dataDir);
    // Each answer with when it was asked for and when it came: the instance decided in between.
    const answers: { sent: number; at: number; status: number; code: unknown; replayed: string | null }[] = [];
    for (;;) {
      const instance = answers.length % 2 === 0 ? b : a;
      const sent = Date.now();
      const answer = await postContact(instance.baseUrl, { ...VALID, message: text }, { key });
      answers.push({
        sent,
        at: Date.now(),
        status: answer.status,
        code: answer.body.code,
        replayed: answer.headers.get('idempotent-replayed'),
      });
      if (answer.status !== 409 || answers.length > 200) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const last = answers.at(-1)!;
    const refusals = answers.slice(0, -1);
    // Every answer that came while the lease (8 s) held was a refusal: the start freed nothing. How
    // many came that early depends on how fast A restarted, which is the machine's business: on a
    // quiet one, A is back within a second or two and most answers come under the lease.
    expect(answers.filter((answer) => answer.at < leaseEnd!).every((answer) => answer.status === 409)).toBe(true);
    expect(refusals.every((answer) => answer.code === 'idempotency_request_in_progress')).toBe(true);
    expect(refusals.every((answer) => answer.sent < leaseEnd!)).toBe(true);
    expect([last.status, last.replayed]).toEqual([200, null]);
    expect(last.at).toBeGreaterThanOrEqual(leaseEnd!);
    expect(countByText(await storedInbox(a.dataDir), [text]).get(text)).toBe(1);
  });

  it('shows a job made on A at its pollUrl on B', async () => {
    const posted = await createJob(a.baseUrl, { task: 'stats' }, { client: '198.51.100.1' });
    expect(posted.status).toBe(202);
    const job = createdSchema.parse(posted.body);
    const polled = await getJson(b, new URL(job.pollUrl).pathname);
    expect([polled.response.status, polled.body.jobId]).toEqual([200, job.jobId]);
    expect((await pollUntilFinished(b.baseUrl, job.jobId)).status).toBe('succeeded');
  });

  it('runs one job at a time across both instances with JOB_CONCURRENCY=1, and finishes them all', async () => {
    // Four clients, so that the per-client limit (one running each) is not what holds them back.
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const posted = await createJob(
        (i % 2 === 0 ? a : b).baseUrl,
        { task: 'digest' },
        { client: `198.51.100.${10 + i}` },
      );
      expect(posted.status, JSON.stringify(posted.body)).toBe(202);
      ids.push(createdSchema.parse(posted.body).jobId);
    }
    // A batch reads every job as of one instant, so two running at once could not hide between reads.
    let mostRunning = 0;
    let statuses = ids.map(() => 'pending');
    for (let round = 0; !statuses.every((status) => status === 'succeeded' || status === 'failed'); round++) {
      const response = await fetch(`${(round % 2 === 0 ? a : b).baseUrl}/api/v1/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operations: ids.map((id) => ({ op: 'getJobStatus', id })) }),
      });
      expect(response.status).toBe(200);
      const { results } = (await response.json()) as { results: { data: { status: string } }[] };
      statuses = results.map((result) => result.data.status);
      mostRunning = Math.max(mostRunning, statuses.filter((status) => status === 'running').length);
      if (round > 2000) throw new Error(`the jobs did not finish: ${statuses.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(mostRunning).toBe(1);
    expect(statuses).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
  });

  it('leaves a job A is running alone while B restarts', async () => {
    const posted = await createJob(a.baseUrl, { task: 'digest' }, { client: '198.51.100.30' });
    expect([posted.status, posted.body.status]).toEqual([202, 'running']);
    const { jobId } = createdSchema.parse(posted.body);
    const row = async () =>
      (await queryState(a.dataDir, 'SELECT status, locked_by, attempts FROM jobs WHERE id = ?', jobId))[0];
    // A is frozen mid-job before anything else is awaited, so the job is certainly still running
    // on A however slowly a busy machine reads its row, and for all of B's restart (its 30 s lease
    // outlasts the freeze).
    process.kill(a.process.pid!, 'SIGSTOP');
    try {
      const onA = await row();
      expect(onA).toMatchObject({ status: 'running', attempts: 1 });
      expect(onA?.locked_by).toContain(`:${a.process.pid}:`);
      expect(await b.stop('SIGTERM')).toBe(0);
      b = await start({}, b.dataDir);
      expect(await row()).toEqual(onA);
    } finally {
      process.kill(a.process.pid!, 'SIGCONT');
    }
    expect((await pollUntilFinished(b.baseUrl, jobId)).status).toBe('succeeded');
    // Finished by its first run, on A: nobody took it over.
    expect(await row()).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('delivers each message to the webhook once, from whichever instance stored it, and the inbox says so', async () => {
    const texts = Array.from({ length: 10 }, (_, i) => `Webhook message ${i} ${randomUUID()}`);
    const answers = await Promise.all(
      texts.map((message, i) => postContact((i % 2 === 0 ? a : b).baseUrl, { ...VALID, message })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(texts.map(() => 200));
    const ours = () => hook.received.filter((post) => texts.includes(post.body.message as string));
    await waitFor(() => new Set(ours().map((post) => post.body.message)).size === texts.length, 'every delivery');
    // Written delivered only after the post: from then on no instance posts it again.
    await waitFor(
      async () =>
        (await storedInbox(a.dataDir)).filter(
          (entry) => texts.includes(entry.message) && entry.deliveries.webhook?.state === 'delivered',
        ).length === texts.length,
      'every delivery recorded',
    );
    const posts = ours();
    expect(posts).toHaveLength(texts.length);
    expect(new Set(posts.map((post) => post.body.id)).size).toBe(texts.length);
    for (const post of posts) expect(post.headers['idempotency-key']).toBe(`message-${String(post.body.id)}`);

    const inbox = (await readInbox(b.dataDir)).filter((entry) => texts.includes(entry.message));
    expect(inbox.map((entry) => entry.deliveries.webhook?.state)).toEqual(texts.map(() => 'delivered'));
    expect(new Set(inbox.map((entry) => entry.id))).toEqual(new Set(posts.map((post) => post.body.id)));
  });

  it('counts a read quota once for the whole service: 20 of 26 reads over two instances', async () => {
    // A pair of its own with a small quota; the client is an address no other test uses.
    const quota = { READ_RATE_LIMIT: '20/60' };
    const [c, d] = await Promise.all([start(quota), start(quota)]);
    try {
      const statuses = await Promise.all(
        Array.from({ length: 26 }, async (_, i) => {
          const response = await fetch(`${(i % 2 === 0 ? c : d).baseUrl}/api/v1/projects?limit=1`, {
            headers: { 'x-forwarded-for': '192.0.2.77' },
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      expect(tally(statuses)).toEqual({ 200: 20, 429: 6 });
    } finally {
      await Promise.all([c.stop(), d.stop()]);
    }
  });

  it('migrates a new database once for instances starting together, and refuses a newer schema', async () => {
    const fresh = { ...shared, DATABASE_URL: await postgres.createDatabase() };
    const [c, d] = await Promise.all([start({}, undefined, fresh), start({}, undefined, fresh)]);
    try {
      const versions = await queryState(c.dataDir, 'SELECT version FROM schema_migrations ORDER BY version');
      expect(versions.map((row) => row.version)).toEqual(versions.map((_, i) => i + 1));
      const written = await Promise.all(
        [c, d].map((instance) => postContact(instance.baseUrl, { ...VALID, message: `Migrated ${randomUUID()}` })),
      );
      expect(written.map((answer) => answer.status)).toEqual([200, 200]);
    } finally {
      await Promise.all([c.stop(), d.stop()]);
    }

    await queryState(c.dataDir, 'INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', 999, Date.now());
    const refused = await startExpectingFailure(fresh);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/has schema version 999, newer than this version of the service knows/);
  });
});
