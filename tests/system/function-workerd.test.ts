import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config/env.ts';
import { securityHeaders } from '../../functions/http/security-headers.ts';
import { postContact, storedInbox, VALID } from '../support/contact.ts';
import { TEST_ENGINE } from '../support/engines.ts';
import { expectMcpInBothEras } from '../support/function-checks.ts';
import { receiver, waitFor, type Receiver } from '../support/webhook.ts';
import { startWorkerdHost, type WorkerdHost } from '../support/workerd-host.ts';

/**
 * The Worker bundle (functions/hosts/cloudflare/worker.ts, bundled by scripts/bundle-functions.ts)
 * in workerd, Cloudflare's runtime, through `wrangler dev --local`: pg over `cloudflare:sockets`
 * and ioredis over node:net reach the run's PostgreSQL and Redis, and every request gets a
 * service of its own (a Worker cannot reuse another request's connections), so nothing that must
 * hold across requests can live in memory.
 */
describe.skipIf(TEST_ENGINE !== 'shared')('the service as a Cloudflare Worker in workerd (wrangler dev)', () => {
  let host: WorkerdHost;
  let hook: Receiver;

  beforeAll(async () => {
    hook = await receiver(0);
    host = await startWorkerdHost({
      READ_RATE_LIMIT: '100000/60',
      CONTACT_RATE_LIMIT: '100000/600',
      NOTIFY_WEBHOOK_URL: hook.url,
    });
  });
  afterAll(async () => {
    await host?.stop();
    hook?.close();
  });

  it('answers a read with the security headers and the caller’s X-Request-Id, and bad input in the error shape', async () => {
    const read = await fetch(`${host.baseUrl}/api/v1/projects`, { headers: { 'x-request-id': 'caller-id-0001' } });
    expect(read.status).toBe(200);
    expect(read.headers.get('x-request-id')).toBe('caller-id-0001');
    const config = loadConfig({ SITE_URL: 'http://localhost:4321' });
    for (const [name, value] of Object.entries(securityHeaders(config)))
      expect(read.headers.get(name), name).toBe(value);

    const bad = await fetch(`${host.baseUrl}/api/v1/projects?limit=lots`);
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(body.requestId).toBe(bad.headers.get('x-request-id'));
  });

  it('keeps one service per isolate: the read quota counted there, REDIS_URL left unused, no request touching another’s connection', async () => {
    const quoted = await startWorkerdHost({ READ_RATE_LIMIT: '3/60' });
    try {
      // Each contact post needs PostgreSQL, through a connection of its own request, closed after it.
      for (let i = 0; i < 2; i++)
        expect(
          (await postContact(quoted.baseUrl, { ...VALID, message: `Per request ${i} ${randomUUID()}` })).status,
        ).toBe(200);
      // The posts counted against the request quota too: one read is left, then the isolate refuses.
      const statuses: number[] = [];
      for (let i = 0; i < 2; i++) statuses.push((await fetch(`${quoted.baseUrl}/api/v1/projects`)).status);
      expect(statuses).toEqual([200, 429]);
      const log = quoted.output.join('\n');
      expect(log).toContain('REDIS_URL is not used on this host');
      expect(log).not.toMatch(/different request|Redis unreachable|"level":"error"/);
    } finally {
      await quoted.stop();
    }
  });

  it('stores a contact message once, replays its answer for the same Idempotency-Key, and delivers its webhook', async () => {
    const key = randomUUID();
    const message = { ...VALID, message: `Through workerd ${key}` };
    const fresh = await postContact(host.baseUrl, message, { key });
    expect([fresh.status, fresh.headers.get('idempotent-replayed')]).toEqual([200, null]);
    const replay = await postContact(host.baseUrl, message, { key });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(replay.body).toEqual(fresh.body);
    const stored = await storedInbox(host.dataDir);
    expect(stored.filter((entry) => entry.message.includes(key))).toHaveLength(1);
    // Delivered through the request's waitUntil, after the answer.
    await waitFor(() => hook.received.some((post) => post.body.message === message.message), 'the webhook');
  });

  it('speaks MCP in both eras: a legacy tools/call through the SDK, and 2026-07-28 server/discover and tools/call', async () => {
    await expectMcpInBothEras(host.baseUrl);
  });

  it('runs the Cron Trigger’s pass of the background work', async () => {
    expect(await host.scheduled()).toBe(200);
    await waitFor(async () => host.output.some((line) => line.includes('"scheduled pass"')), 'the pass’s log line');
  });
});
