import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildDataOf, type BuildData } from '../../functions/hosts/fetch/build-data.ts';
import { createFetchHandler, type ServiceFunction } from '../../functions/hosts/fetch/create-fetch-handler.ts';
import { loadBuild } from '../../functions/hosts/static/build-output.ts';
import { freshRedisUrl, TEST_ENGINE } from '../support/engines.ts';
import { freshDatabaseUrl, migrateDatabase } from '../support/postgres.ts';
import { ROOT } from '../support/server.ts';

/**
 * A function instance's database connections (functions/state/postgres/pg-connections.ts): none
 * for what the build answers, at most one while a request needs the database, none once the
 * instance may be frozen; no migration at request time, and a database behind the build's
 * schema answered with 503 until `npm run migrate` has run. Counted by PostgreSQL itself
 * (pg_stat_activity), in process: no process behaviour is at stake.
 */
describe.skipIf(TEST_ENGINE !== 'shared')('a function instance and its PostgreSQL connections', () => {
  let build: BuildData;
  let admin: pg.Client | undefined;
  const services: ServiceFunction[] = [];

  beforeAll(async () => {
    build = buildDataOf(loadBuild(path.join(ROOT, 'dist')));
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.close()));
    await admin?.end();
  });

  /** A new instance on a new database, and a way to count the connections to that database. */
  async function instance(migrated: boolean) {
    const url = await freshDatabaseUrl();
    if (migrated) await migrateDatabase(url);
    if (admin === undefined) {
      admin = new pg.Client({ connectionString: url });
      await admin.connect();
    }
    const database = new URL(url).pathname.slice(1);
    const env = { DATABASE_URL: url, REDIS_URL: await freshRedisUrl(), ALLOW_BUILD_MISMATCH: 'true' };
    const service = createFetchHandler(env, build);
    services.push(service);
    const connections = async () => {
      const { rows } = await (admin as pg.Client).query<{ count: number }>(
        'SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      return rows[0]?.count ?? -1;
    };
    return { url, service, connections };
  }

  const contactPost = () =>
    new Request('http://localhost:4321/api/v1/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', message: 'A message long enough to keep.' }),
    });

  it('answers projects, search and the API index with no connection, and writes with one at most, released after them', async () => {
    const { service, connections } = await instance(true);
    const slug = build.projects[0]?.slug ?? '';
    for (const target of ['/api/v1/projects', `/api/v1/projects/${slug}`, '/api/search?q=astro', '/api/v1'])
      expect((await service.fetch(new Request(`http://localhost:4321${target}`))).status).toBe(200);
    expect(await connections()).toBe(0);

    let peak = 0;
    const watching = setInterval(() => void connections().then((count) => (peak = Math.max(peak, count))), 5);
    const waited: Promise<unknown>[] = [];
    const answers = await Promise.all(
      [1, 2, 3].map(() => service.fetch(contactPost(), { waitUntil: (promise) => waited.push(promise) })),
    );
    clearInterval(watching);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    await Promise.allSettled(waited);
    expect(peak).toBeLessThanOrEqual(1);
    await vi.waitFor(async () => expect(await connections()).toBe(0), { timeout: 30_000 });
  });

  it('answers 503 with Retry-After on a database behind its schema, names npm run migrate once in the log, and answers once migrated', async () => {
    const { url, service } = await instance(false);
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const refused = [await service.fetch(contactPost()), await service.fetch(contactPost())];
      expect(refused.map((answer) => answer.status)).toEqual([503, 503]);
      expect(refused[0]?.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await refused[0]?.json()).toMatchObject({ code: 'storage_unavailable' });
    } finally {
      write.mockRestore();
    }
    const naming = lines
      .join('')
      .split('\n')
      .filter((line) => line.includes('npm run migrate'));
    expect(naming).toHaveLength(1);
    // The read of the build still answers while the schema is behind.
    expect((await service.fetch(new Request('http://localhost:4321/api/v1/projects'))).status).toBe(200);

    await migrateDatabase(url);
    expect((await service.fetch(contactPost())).status).toBe(200);
  });
});
