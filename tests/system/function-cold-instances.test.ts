import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildDataOf, type BuildData } from '../../functions/hosts/fetch/build-data.ts';
import { createFetchHandler, type ServiceFunction } from '../../functions/hosts/fetch/create-fetch-handler.ts';
import { loadBuild } from '../../functions/hosts/static/build-output.ts';
import { startDelayProxy, type DelayProxy } from '../support/delay-proxy.ts';
import { TEST_ENGINE } from '../support/engines.ts';
import { freshDatabaseUrl, migrateDatabase, startPostgres, type ThrowawayPostgres } from '../support/postgres.ts';
import { ROOT } from '../support/server.ts';

/**
 * Many function instances starting at once, as a burst of traffic starts them on a function
 * host, each a service of its own in process answering one request (its one connection at
 * most, released when its request is done): against a database with few connections, as a free
 * tier has, and against a database some distance away (a proxy that delays every packet). What
 * is checked is each answer's outcome, never how long it took.
 */
describe.skipIf(TEST_ENGINE !== 'shared')('cold function instances in a burst', () => {
  let build: BuildData;
  const services: ServiceFunction[] = [];
  const clients: pg.Client[] = [];

  beforeAll(() => {
    build = buildDataOf(loadBuild(path.join(ROOT, 'dist')));
  });
  /** Ends the instances and the test's own connections, before the server or proxy under them goes. */
  const closeAll = async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
    await Promise.all(clients.splice(0).map((client) => client.end()));
  };
  afterAll(closeAll);

  /** A new instance on `url`, without Redis: PostgreSQL counts the quotas that must hold across instances. */
  function instance(url: string): ServiceFunction {
    const service = createFetchHandler(
      { DATABASE_URL: url, ALLOW_BUILD_MISMATCH: 'true', CONTACT_RATE_LIMIT: '100000/600' },
      build,
    );
    services.push(service);
    return service;
  }

  async function connected(url: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    clients.push(client);
    await client.connect();
    return client;
  }

  const read = () => new Request('http://localhost:4321/api/v1/projects');
  const contactPost = (message: string) =>
    new Request('http://localhost:4321/api/v1/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', message }),
    });
  /** Each instance's client has an address of its own, as a burst of visitors would. */
  const visitor = (index: number) => ({ clientIp: `198.51.100.${index % 250}` });

  /** How many times each of `texts` is stored. */
  async function storedCounts(admin: pg.Client, texts: readonly string[]): Promise<Map<string, number>> {
    const { rows } = await admin.query<{ message: string; count: number }>(
      'SELECT message, count(*)::int AS count FROM messages WHERE message = ANY($1::text[]) GROUP BY message',
      [texts],
    );
    return new Map(rows.map((row) => [row.message, row.count]));
  }

  describe('200 at once on a database with max_connections = 20', () => {
    let server: ThrowawayPostgres;

    beforeAll(async () => {
      server = await startPostgres({ maxConnections: 20 });
    });
    afterAll(async () => {
      await closeAll();
      await server?.destroy();
    });

    it('answers every read 200 and every contact post 200 or 503 with Retry-After, stores each acknowledged message once, and leaves no connection', async () => {
      const url = await server.createDatabase();
      await migrateDatabase(url);
      const database = new URL(url).pathname.slice(1);
      // The test's own connection, on the server's admin database, takes one of the 20 slots throughout.
      const admin = await connected(server.url);
      const connections = async () =>
        (
          await admin.query<{ count: number }>(
            'SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = $1',
            [database],
          )
        ).rows[0]?.count;

      const tag = crypto.randomUUID();
      const requests = Array.from({ length: 200 }, (_, index) =>
        index % 2 === 0 ? { index, request: read() } : { index, text: `Cold ${tag} ${index}` },
      );
      const answers = await Promise.all(
        requests.map(async (entry) => {
          const response = await instance(url).fetch(
            entry.request ?? contactPost(entry.text as string),
            visitor(entry.index),
          );
          return { ...entry, status: response.status, response, body: await response.text() };
        }),
      );

      const reads = answers.filter((answer) => answer.text === undefined);
      expect(reads.map((answer) => answer.status)).toEqual(reads.map(() => 200));
      const posts = answers.filter((answer) => answer.text !== undefined);
      for (const post of posts) {
        expect([200, 503], post.body).toContain(post.status);
        if (post.status === 503) {
          expect(post.response.headers.get('retry-after')).toMatch(/^\d+$/);
          expect(JSON.parse(post.body)).toMatchObject({
            code: 'storage_unavailable',
            message: expect.any(String),
            requestId: expect.any(String),
          });
        }
      }

      // Every instance lets its connection go once its request is done.
      await vi.waitFor(async () => expect(await connections()).toBe(0), { timeout: 60_000, interval: 100 });
      const acknowledged = posts.filter((post) => post.status === 200).map((post) => post.text as string);
      const refused = posts.filter((post) => post.status === 503).map((post) => post.text as string);
      const db = await connected(url);
      const counts = await storedCounts(db, [...acknowledged, ...refused]);
      expect(acknowledged.map((text) => counts.get(text))).toEqual(acknowledged.map(() => 1));
      // A refusal says nothing was stored, and nothing was.
      expect(refused.filter((text) => counts.has(text))).toEqual([]);
    });
  });

  describe('40 at once on a database 10 ms away each way', () => {
    let proxy: DelayProxy;

    beforeAll(async () => {
      proxy = await startDelayProxy({ port: Number(new URL(inject('postgresUrl')).port) }, 10);
    });
    afterAll(async () => {
      await closeAll();
      await proxy?.close();
    });

    it('answers every contact post 200, and no instance takes the migration lock or any other advisory lock', async () => {
      const url = await freshDatabaseUrl();
      await migrateDatabase(url);
      // Straight to the database, not through the proxy: the sampling keeps up with the burst.
      const admin = await connected(url);
      const advisoryLocks = async () =>
        (
          await admin.query<{ count: number }>(
            `SELECT count(*)::int AS count FROM pg_locks
              WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          )
        ).rows[0]?.count ?? 0;

      let samples = 0;
      let peakLocks = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          peakLocks = Math.max(peakLocks, await advisoryLocks());
          samples++;
        }
      })();

      const through = proxy.urlThrough(url);
      const tag = crypto.randomUUID();
      const texts = Array.from({ length: 40 }, (_, index) => `Far away ${tag} ${index}`);
      const answers = await Promise.all(
        texts.map(async (text, index) => {
          const response = await instance(through).fetch(contactPost(text), visitor(index));
          return { status: response.status, body: await response.text() };
        }),
      );
      sampling = false;
      await sampler;

      expect(
        answers.filter((answer) => answer.status !== 200),
        'answers other than 200',
      ).toEqual([]);
      expect(samples).toBeGreaterThan(0);
      expect(peakLocks).toBe(0);
      const counts = await storedCounts(admin, texts);
      expect(texts.map((text) => counts.get(text))).toEqual(texts.map(() => 1));
    });
  });
});
