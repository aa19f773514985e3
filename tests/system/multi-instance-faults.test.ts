import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContact, storedInbox, VALID, type Posted } from '../support/contact.ts';
import { freePort } from '../support/free-port.ts';
import {
  claimLeaseEnd,
  countByText,
  slowContactPost,
  startInstance,
  type SharedServers,
} from '../support/instances.ts';
import { createdSchema, createJob, pollUntilFinished } from '../support/jobs.ts';
import { HAS_POSTGRES, startPostgres, type ThrowawayPostgres } from '../support/postgres.ts';
import { queryState } from '../support/raw-state.ts';
import { HAS_REDIS, startRedis, type ThrowawayRedis } from '../support/redis.ts';
import { startExpectingFailure, type RunningServer } from '../support/server.ts';
import { waitFor } from '../support/webhook.ts';

/**
 * Two production servers, A and B, on one PostgreSQL and one Redis of this file's own, while
 * those fail under them and while one of the instances dies: what was acknowledged stays stored
 * once, writes come back by themselves, quotas never stop a request, and work a dead instance
 * held is finished by the other.
 */
describe.skipIf(!HAS_POSTGRES || !HAS_REDIS)('several instances through faults', () => {
  let postgres: ThrowawayPostgres;
  let redis: ThrowawayRedis;
  let shared: SharedServers;
  let a: RunningServer;
  let b: RunningServer;
  const started: RunningServer[] = [];
  /** An instance pointed at a port where no PostgreSQL listens; it gives up after its 30 s wait. */
  let unreachable: Promise<{ code: number | null; stderr: string; waitedMs: number }>;
  let unreachablePort: number;

  /**
   * Quotas out of the way; a request timeout of 2 s, so a contact claim's lease is 7 s; a job
   * lease of 2 s, so a dead instance's job is taken over within about 3 s.
   */
  const ENV = {
    READ_RATE_LIMIT: '100000/60',
    CONTACT_RATE_LIMIT: '100000/600',
    HEADERS_TIMEOUT_MS: '1000',
    REQUEST_TIMEOUT_MS: '2000',
    JOB_LEASE_SECONDS: '2',
  };

  async function start(onLog?: (entry: Record<string, unknown>) => void, dataDir?: string) {
    const instance = await startInstance(shared, ENV, dataDir, onLog);
    started.push(instance);
    return instance;
  }

  beforeAll(async () => {
    // The 30 s wait runs beside the other tests, so the file pays for it once; the last test looks at it.
    unreachablePort = await freePort();
    const startedAt = Date.now();
    unreachable = startExpectingFailure({
      DATABASE_URL: `postgresql://portfolio:not-to-be-logged@127.0.0.1:${unreachablePort}/portfolio`,
    }).then((outcome) => ({ ...outcome, waitedMs: Date.now() - startedAt }));
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    shared = { DATABASE_URL: await postgres.createDatabase(), REDIS_URL: redis.url };
    [a, b] = await Promise.all([start(), start()]);
  });
  afterAll(async () => {
    await Promise.all(started.map((instance) => instance.stop('SIGKILL')));
    await Promise.all([postgres?.destroy(), redis?.stop()]);
  });

  const message = (label: string) => ({ ...VALID, message: `${label} ${randomUUID()}` });

  it('answers writes 503 while PostgreSQL is down and reads 200, then writes again by itself, losing nothing', async () => {
    const before = [message('Before the outage'), message('Before the outage')];
    const acknowledged = await Promise.all(before.map((body, i) => postContact([a, b][i]!.baseUrl, body)));
    expect(acknowledged.map((answer) => answer.status)).toEqual([200, 200]);

    await postgres.stop();
    const during = [message('Retried after the outage'), message('Retried after the outage')];
    const keys = [randomUUID(), randomUUID()];
    for (const [i, instance] of [a, b].entries()) {
      const refused = await postContact(instance.baseUrl, during[i], { key: keys[i]! });
      expect([refused.status, refused.body.code]).toEqual([503, 'storage_unavailable']);
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      const read = await fetch(`${instance.baseUrl}/api/v1/projects?limit=2`);
      expect(read.status).toBe(200);
      expect(((await read.json()) as { data: unknown[] }).data).toHaveLength(2);
    }

    await postgres.start();
    // The same instances (no restart), retrying with the same keys as a client told Retry-After would.
    for (const [i, instance] of [a, b].entries()) {
      let last: Posted | undefined;
      await waitFor(async () => {
        last = await postContact(instance.baseUrl, during[i], { key: keys[i]! });
        return last.status !== 503;
      }, `writes on instance ${i} after PostgreSQL returned`);
      expect([last?.status, last?.headers.get('idempotent-replayed')]).toEqual([200, null]);
    }
    expect([a.process.exitCode, b.process.exitCode]).toEqual([null, null]);

    const texts = [...before, ...during].map((body) => body.message);
    const counts = countByText(await storedInbox(a.dataDir), texts);
    expect([...counts.values()]).toEqual(texts.map(() => 1));
  });

  it('gives an Idempotency-Key back when PostgreSQL goes away mid-request, and serves keyed reads unverified meanwhile', async () => {
    // A claim's lease here is a minute (REQUEST_TIMEOUT_MS plus a margin): only a release frees the keys in time.
    const c = await startInstance(shared, { ...ENV, HEADERS_TIMEOUT_MS: '10000', REQUEST_TIMEOUT_MS: '60000' });
    started.push(c);
    const created = await fetch(`${c.baseUrl}/api/v1/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(created.status).toBe(201);
    // Created, never presented: C has not checked it, so only the database can.
    const { key: testKey } = (await created.json()) as { key: string };
    const cut = [message('Cut off by the restart'), message('Cut off by the restart')];
    const keys = [randomUUID(), randomUUID()];
    const posts = await Promise.all(keys.map((key, i) => slowContactPost(c.baseUrl, key, JSON.stringify(cut[i]))));
    for (const key of keys)
      await waitFor(async () => (await claimLeaseEnd(c.dataDir, key)) !== undefined, `the claim on ${key}`);

    await postgres.stop();
    for (const answer of await Promise.all(posts.map((post) => post.finish())))
      expect(answer).toMatch(/^HTTP\/1\.1 503 [^]*storage_unavailable/);
    const keyed = await fetch(`${c.baseUrl}/api/v1/projects?limit=2`, { headers: { 'x-api-key': testKey } });
    expect(keyed.status).toBe(200);
    expect(((await keyed.json()) as { data: unknown[] }).data).toHaveLength(2);
    expect(['x-api-key-status', 'x-quota-tier', 'x-sandbox'].map((name) => keyed.headers.get(name))).toEqual([
      'unverified',
      'anonymous',
      'true',
    ]);

    await postgres.start();
    // The same key on the same instance: the claim is given back before the key is claimed again.
    let again: Posted | undefined;
    await waitFor(async () => {
      again = await postContact(c.baseUrl, cut[0], { key: keys[0]! });
      return again.status !== 503;
    }, 'a write on C after PostgreSQL returned');
    expect([again?.status, again?.headers.get('idempotent-replayed')]).toEqual([200, null]);
    // The other key through another instance: C gives its claim back by itself once PostgreSQL answers.
    let elsewhere: Posted | undefined;
    await waitFor(async () => {
      elsewhere = await postContact(a.baseUrl, cut[1], { key: keys[1]! });
      return elsewhere.status !== 503 && elsewhere.status !== 409;
    }, 'the second key on A');
    expect([elsewhere?.status, elsewhere?.headers.get('idempotent-replayed')]).toEqual([200, null]);

    const verified = await fetch(`${c.baseUrl}/api/v1/sandbox/ping`, { headers: { 'x-api-key': testKey } });
    expect(verified.headers.get('x-api-key-status')).toBe('valid');
    const counts = countByText(
      await storedInbox(a.dataDir),
      cut.map((body) => body.message),
    );
    expect([...counts.values()]).toEqual([1, 1]);
  });

  it('serves every request while Redis is down, and each instance logs the fallback and the return once', async () => {
    const UNREACHABLE = 'Redis unreachable: quotas are counted in PostgreSQL (reads per instance) until it returns';
    const BACK = 'Redis is back: quotas are counted across instances again';
    const logged = (instance: RunningServer, text: string) =>
      instance.logLines.filter((line) => line.message === text).length;
    const read = async (instance: RunningServer) => {
      const response = await fetch(`${instance.baseUrl}/api/v1/projects?limit=1`);
      await response.arrayBuffer();
      return response.status;
    };
    expect([a, b].map((instance) => logged(instance, UNREACHABLE))).toEqual([0, 0]);

    await redis.stop();
    const reads = await Promise.all(Array.from({ length: 20 }, (_, i) => read(i % 2 === 0 ? a : b)));
    expect(reads).toEqual(reads.map(() => 200));
    await waitFor(
      () => [a, b].every((instance) => logged(instance, UNREACHABLE) > 0),
      'both instances logging the fallback',
    );

    await redis.start();
    // A request makes an instance notice sooner; each one is served either way.
    await waitFor(async () => {
      expect(await Promise.all([read(a), read(b)])).toEqual([200, 200]);
      return [a, b].every((instance) => logged(instance, BACK) > 0);
    }, 'both instances seeing Redis return');
    expect(await Promise.all(Array.from({ length: 10 }, (_, i) => read(i % 2 === 0 ? a : b)))).toEqual(
      Array.from({ length: 10 }, () => 200),
    );
    for (const instance of [a, b]) {
      expect([logged(instance, UNREACHABLE), logged(instance, BACK)]).toEqual([1, 1]);
    }
  });

  it('starts an instance while PostgreSQL is down, once PostgreSQL comes up within the wait', async () => {
    await postgres.stop();
    let waiting = false;
    const starting = start((entry) => {
      if (entry.message === 'PostgreSQL is not reachable yet; retrying') waiting = true;
    });
    try {
      await waitFor(() => waiting, 'the new instance waiting for PostgreSQL');
    } finally {
      await postgres.start();
    }
    const late = await starting;
    expect((await postContact(late.baseUrl, message('Written by a late starter'))).status).toBe(200);
    await late.stop();
  });

  it('stores every acknowledged message once when A dies by kill -9 amid contact traffic', async () => {
    const label = `Amid a crash ${randomUUID()}`;
    const acknowledged = new Set<string>();
    const sent = new Set<string>();
    const failedOnA: string[] = [];
    let stopping = false;

    /** Posts until acknowledged: to `first`, and a retry of a failed post goes to B with the same key. */
    async function deliver(first: RunningServer, text: string): Promise<void> {
      const key = randomUUID();
      const body = { ...VALID, message: text };
      sent.add(text);
      let target = first;
      for (let attempt = 0; attempt < 200; attempt++) {
        const answer = await postContact(target.baseUrl, body, { key }).catch(() => undefined);
        if (answer?.status === 200) {
          acknowledged.add(text);
          return;
        }
        if (target === a) failedOnA.push(text);
        // A's connection failed (it died), or its claim holds the key on B (409) until the lease ends.
        if (answer !== undefined && answer.status !== 409) throw new Error(`unexpected answer ${answer.status}`);
        target = b;
        if (answer?.status === 409) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`never acknowledged: ${text}`);
    }

    async function worker(id: number): Promise<void> {
      for (let n = 0; !stopping; n++) await deliver(n % 2 === 0 ? a : b, `${label} ${id}.${n}`);
    }

    const workers = Promise.all([0, 1, 2, 3].map(worker));
    await waitFor(() => acknowledged.size >= 40, 'traffic on both instances');
    await a.stop('SIGKILL');
    const atKill = acknowledged.size;
    await waitFor(() => acknowledged.size >= atKill + 20, 'traffic carrying on through B');
    stopping = true;
    await workers;

    // The kill landed amid traffic: some posts to A failed and were retried on B.
    expect(failedOnA.length).toBeGreaterThan(0);
    expect(acknowledged.size).toBe(sent.size);
    const stored = (await storedInbox(b.dataDir)).filter((entry) => entry.message.startsWith(label));
    const counts = countByText(stored, [...sent]);
    expect([...counts.entries()].filter(([, count]) => count !== 1)).toEqual([]);
    expect(stored).toHaveLength(sent.size);
  });

  it('finishes a job on B after the instance running it dies by kill -9', async () => {
    // A died in the previous test; the job runs on an instance of its own, which dies mid-job.
    const runner = await start();
    const posted = await createJob(runner.baseUrl, { task: 'digest' });
    expect([posted.status, posted.body.status]).toEqual([202, 'running']);
    const { jobId } = createdSchema.parse(posted.body);
    const row = async () =>
      (await queryState(b.dataDir, 'SELECT status, locked_by, attempts FROM jobs WHERE id = ?', jobId))[0];
    // Killed before anything else is awaited, so the job is certainly cut short mid-run, however
    // slowly a busy machine reads its row.
    const pid = runner.process.pid;
    await runner.stop('SIGKILL');
    const before = await row();
    expect(before).toMatchObject({ status: 'running', attempts: 1 });
    expect(before?.locked_by).toContain(`:${pid}:`);

    expect((await pollUntilFinished(b.baseUrl, jobId)).status).toBe('succeeded');
    // Run twice: cut short on the dead instance, then taken over after its lease and finished.
    expect(await row()).toMatchObject({ status: 'succeeded', attempts: 2, locked_by: null });
  });

  it('exits 1 after waiting for a PostgreSQL that never answers, naming the URL without its password', async () => {
    const { code, stderr, waitedMs } = await unreachable;
    expect(code).toBe(1);
    expect(stderr).toContain(
      `PostgreSQL at postgresql://portfolio@127.0.0.1:${unreachablePort}/portfolio cannot be reached`,
    );
    expect(stderr).toContain('waited 30 s');
    expect(stderr).not.toContain('not-to-be-logged');
    // It waited rather than giving up at the first refusal.
    expect(waitedMs).toBeGreaterThanOrEqual(29_000);
  });
});
