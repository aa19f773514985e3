import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { VALID } from '../support/contact.ts';
import { freshRedisUrl } from '../support/engines.ts';
import { freePort } from '../support/free-port.ts';
import { startInstance, tally, type SharedServers } from '../support/instances.ts';
import { clientFetch, HAS_NGINX, startNginx, type RunningNginx } from '../support/nginx.ts';
import { freshDatabaseUrl, HAS_POSTGRES } from '../support/postgres.ts';
import { HAS_REDIS } from '../support/redis.ts';
import type { RunningServer } from '../support/server.ts';
import { waitFor } from '../support/webhook.ts';

/**
 * A restart of the one instance behind nginx leaves nothing to pass requests to until it listens
 * again: those requests get 502. With a second instance on the shared engines, listed in the
 * site's upstream (the generated dist/nginx/portfolio.conf, its second `server` line enabled), nginx passes a
 * request that cannot reach one instance to the other. Here the instances are restarted one at a
 * time while clients loop reads and contact posts through nginx; what is counted is answers.
 */
describe.skipIf(!HAS_NGINX || !HAS_POSTGRES || !HAS_REDIS)('restarts behind nginx with two instances', () => {
  const running: RunningServer[] = [];
  let nginx: RunningNginx | undefined;
  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(running.map((instance) => instance.stop()));
  });

  it('restarting each instance in turn gives no 502 to reads or writes', async () => {
    const shared: SharedServers = { DATABASE_URL: await freshDatabaseUrl(), REDIS_URL: await freshRedisUrl() };
    const ports = [await freePort(), await freePort()] as const;
    const env = (port: number) => ({
      PORT: String(port),
      TRUST_PROXY: '1',
      READ_RATE_LIMIT: '1000000/60',
      CONTACT_RATE_LIMIT: '1000000/600',
    });
    const start = async (index: 0 | 1) => {
      const instance = await startInstance(shared, env(ports[index]));
      running[index] = instance;
      return instance;
    };
    await Promise.all([start(0), start(1)]);
    nginx = await startNginx(ports);

    const site = nginx.httpsUrl;
    const visitor = clientFetch(nginx.ca, '127.0.0.2');
    const statuses = { read: [] as number[], write: [] as number[] };
    let looping = true;
    const readLoop = (async () => {
      while (looping) statuses.read.push((await visitor(`${site}/api/v1/projects?limit=1`)).status);
    })();
    const writeLoop = (async () => {
      while (looping) {
        const posted = await visitor(`${site}/api/v1/contact`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body: JSON.stringify(VALID),
        });
        statuses.write.push(posted.status);
      }
    })();
    /** Waits until the loops have had `count` more answers: traffic, not time, is what must pass. */
    const answers = async (count: number, what: string) => {
      const target = statuses.read.length + statuses.write.length + count;
      await waitFor(() => statuses.read.length + statuses.write.length >= target, what);
    };
    /** Access-log lines of an instance for requests nginx passed it. */
    const served = (instance: RunningServer) =>
      instance.logLines.filter((line) => typeof line.path === 'string' && line.path.startsWith('/api/v1/')).length;

    try {
      await answers(50, 'traffic through both instances');
      for (const index of [0, 1] as const) {
        await running[index]!.stop('SIGTERM');
        await answers(100, `traffic while instance ${index + 1} is down`);
        // The README's order: the next restart as soon as this instance listens again.
        await start(index);
      }
      // nginx passes requests to both restarted instances.
      await waitFor(
        () => running.every((instance) => served(instance) > 0),
        'traffic through both restarted instances',
      );
    } finally {
      looping = false;
      await Promise.all([readLoop, writeLoop]);
    }
    expect(tally(statuses.read)).toEqual({ 200: statuses.read.length });
    expect(tally(statuses.write)).toEqual({ 200: statuses.write.length });
  });
});
