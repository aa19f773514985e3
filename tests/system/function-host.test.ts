import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config/env.ts';
import { securityHeaders } from '../../functions/http/security-headers.ts';
import { loadBuild } from '../../functions/hosts/static/build-output.ts';
import { buildDataOf } from '../../functions/hosts/fetch/build-data.ts';
import { createFetchHandler } from '../../functions/hosts/fetch/create-fetch-handler.ts';
import { EmbeddedEngineRefused } from '../../functions/hosts/fetch/shared-engines.ts';
import { postContact, storedInbox, VALID } from '../support/contact.ts';
import { TEST_ENGINE } from '../support/engines.ts';
import { startFetchHost, type FetchHost } from '../support/fetch-host.ts';
import { expectMcpInBothEras } from '../support/function-checks.ts';
import { claimLeaseEnd, slowContactPost } from '../support/instances.ts';
import { created, getJob } from '../support/jobs.ts';
import { ROOT } from '../support/server.ts';
import { receiver, waitFor, type Receiver } from '../support/webhook.ts';
import { OUR_REQUEST_ID } from '../../functions/http/request-id.ts';

/**
 * The service as a function (functions/hosts/fetch/create-fetch-handler.ts) behind a minimal
 * Web-standard host that imports the function bundle anew for every request
 * (tests/support/fetch-host.ts): any state kept in memory between requests is lost here, as on
 * a host where any instance may be new, so what must hold across requests (quotas, idempotency,
 * the outbox, the job queue) has to hold in PostgreSQL and Redis.
 */
describe.skipIf(TEST_ENGINE !== 'shared')('the function, with a fresh instance per request', () => {
  let host: FetchHost;
  let hook: Receiver;

  beforeAll(async () => {
    hook = await receiver(0);
    host = await startFetchHost({
      READ_RATE_LIMIT: '100000/60',
      CONTACT_RATE_LIMIT: '100000/600',
      NOTIFY_WEBHOOK_URL: hook.url,
      JOB_CONCURRENCY: '1',
    });
  });
  afterAll(async () => {
    await host?.stop();
    hook?.close();
  });

  it('answers a read with the security headers, the caller’s X-Request-Id, and 304 for its ETag', async () => {
    const first = await fetch(`${host.baseUrl}/api/v1/projects`, { headers: { 'x-request-id': 'caller-id-0001' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-request-id')).toBe('caller-id-0001');
    const config = loadConfig({ SITE_URL: process.env.SITE_URL });
    for (const [name, value] of Object.entries(securityHeaders(config)))
      expect(first.headers.get(name), name).toBe(value);
    const etag = first.headers.get('etag');
    expect(etag).not.toBeNull();
    const again = await fetch(`${host.baseUrl}/api/v1/projects`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('x-request-id')).toMatch(OUR_REQUEST_ID);
    // One access-log line per request, written before the instance could be frozen.
    await waitFor(
      () => host.logLines.some((line) => line.clientRequestId === 'caller-id-0001'),
      'the access-log line of the read',
    );
    expect(host.logLines.find((line) => line.clientRequestId === 'caller-id-0001')).toMatchObject({
      method: 'GET',
      path: '/api/v1/projects',
      status: 200,
      clientIp: '127.0.0.1',
    });
  });

  it('answers bad input in the error shape: a bad query 400, a body past the limit 413, a foreign Origin 403', async () => {
    const bad = await fetch(`${host.baseUrl}/api/v1/projects?limit=lots`);
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(body.requestId).toBe(bad.headers.get('x-request-id'));

    // Streamed without a length, so only the bounded read can refuse it.
    const huge = await fetch(`${host.baseUrl}/api/v1/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: new Blob([`{"message":"${'x'.repeat(2 * 1024 * 1024)}"}`]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: 'payload_too_large' });

    // A page of another origin may not write, nor talk to the MCP server.
    const foreign = await postContact(host.baseUrl, VALID, { headers: { origin: 'https://evil.example' } });
    expect([foreign.status, foreign.body.code]).toEqual([403, 'cross_origin_refused']);
    const mcp = await fetch(`${host.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        origin: 'https://evil.example',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(403);
  });

  it('replays a contact answer on a new instance, and answers 409 on another while the first is in flight', async () => {
    const key = randomUUID();
    const message = { ...VALID, message: `Replayed across instances ${key}` };
    const fresh = await postContact(host.baseUrl, message, { key });
    expect([fresh.status, fresh.headers.get('idempotent-replayed')]).toEqual([200, null]);
    const replay = await postContact(host.baseUrl, message, { key });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(replay.body).toEqual(fresh.body);

    const slowKey = randomUUID();
    const text = JSON.stringify({ ...VALID, message: `In flight ${slowKey}` });
    const slow = await slowContactPost(host.baseUrl, slowKey, text);
    // Its instance claims the key as soon as it has the headers, before it reads the body.
    await waitFor(async () => (await claimLeaseEnd(host.dataDir, slowKey)) !== undefined, 'the claim of the slow post');
    const concurrent = await postContact(host.baseUrl, JSON.parse(text), { key: slowKey });
    expect([concurrent.status, concurrent.body.code]).toEqual([409, 'idempotency_request_in_progress']);
    expect(await slow.finish()).toMatch(/^HTTP\/1\.1 200/);
    const stored = await storedInbox(host.dataDir);
    expect(stored.filter((entry) => entry.message.includes(slowKey))).toHaveLength(1);
    expect(stored.filter((entry) => entry.message.includes(key))).toHaveLength(1);
  });

  it('delivers the webhook of a stored message through waitUntil, after the answer', async () => {
    const key = randomUUID();
    const before = hook.received.length;
    expect((await postContact(host.baseUrl, { ...VALID, message: `Kicked ${key}` }, { key })).status).toBe(200);
    await host.settled();
    expect(hook.received.slice(before).map((post) => post.body.message)).toContain(`Kicked ${key}`);
  });

  it('runs a created job through waitUntil, after the answer', async () => {
    const job = await created(host.baseUrl, { task: 'stats' });
    // Queued, not started: on a function nothing may run past the answer unless the host keeps it.
    expect(job.status).toBe('pending');
    await host.settled();
    expect((await getJob(host.baseUrl, job.jobId)).body.status).toBe('succeeded');
  });

  it('speaks MCP in both eras: a legacy tools/call through the SDK, and 2026-07-28 server/discover and tools/call', async () => {
    await expectMcpInBothEras(host.baseUrl);
  });

  it('counts a quota across instances: the 429 comes though every request is a new instance', async () => {
    const quoted = await startFetchHost({ READ_RATE_LIMIT: '3/60' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await fetch(`${quoted.baseUrl}/api/v1/projects`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await quoted.settled()).instances).toBeGreaterThanOrEqual(4);
    } finally {
      await quoted.stop();
    }
  });
});

describe.skipIf(TEST_ENGINE !== 'shared')('the function on a host without waitUntil', () => {
  let host: FetchHost;
  let hook: Receiver;

  beforeAll(async () => {
    hook = await receiver(0);
    host = await startFetchHost(
      { READ_RATE_LIMIT: '100000/60', CONTACT_RATE_LIMIT: '100000/600', NOTIFY_WEBHOOK_URL: hook.url },
      { waitUntil: false },
    );
  });
  afterAll(async () => {
    await host?.stop();
    hook?.close();
  });

  it('runs nothing after the answer; the scheduled pass delivers the message and runs the job', async () => {
    expect((await postContact(host.baseUrl, { ...VALID, message: 'Left for the schedule' })).status).toBe(200);
    const job = await created(host.baseUrl, { task: 'stats' });
    expect(job.status).toBe('pending');
    await host.settled();
    expect(hook.attempts()).toBe(0);
    expect((await getJob(host.baseUrl, job.jobId)).body.status).toBe('pending');

    const report = await host.scheduled();
    expect(report).toMatchObject({ deliveries: { webhook: 1 }, jobs: { reaped: 0, started: 1 } });
    expect(hook.received.map((post) => post.body.message)).toEqual(['Left for the schedule']);
    expect((await getJob(host.baseUrl, job.jobId)).body.status).toBe('succeeded');
  });
});

describe('a function on the embedded engines', () => {
  it('refuses to be created without PostgreSQL, in one line naming what is missing and what would be lost', () => {
    const build = buildDataOf(loadBuild(path.join(ROOT, 'dist')));
    const env = { SITE_URL: process.env.SITE_URL, ALLOW_BUILD_MISMATCH: 'true', DATA_DIR: ROOT };
    let refusal: unknown;
    try {
      createFetchHandler(env, build);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(EmbeddedEngineRefused);
    const { message } = refusal as Error;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/set DATABASE_URL \(PostgreSQL\)/);
    expect(message).toMatch(/lost between instances/);
    // Redis is optional: PostgreSQL alone counts the quotas that must hold across instances.
    expect(createFetchHandler({ ...env, DATABASE_URL: 'postgresql://localhost/x' }, build).fetch).toBeTypeOf(
      'function',
    );
  });
});
