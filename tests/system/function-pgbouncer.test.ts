import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { buildDataOf, type BuildData } from '../../functions/hosts/fetch/build-data.ts';
import { createFetchHandler, type ServiceFunction } from '../../functions/hosts/fetch/create-fetch-handler.ts';
import { loadBuild } from '../../functions/hosts/static/build-output.ts';
import { MIGRATIONS } from '../../functions/state/postgres/migrations.ts';
import { TEST_ENGINE } from '../support/engines.ts';
import { npmRun } from '../support/npm-run.ts';
import { startPgBouncer, HAS_PGBOUNCER, type ThrowawayPgBouncer } from '../support/pgbouncer.ts';
import { freshDatabaseUrl } from '../support/postgres.ts';
import { ROOT } from '../support/server.ts';

/**
 * The functions through a transaction-mode pooler, as Neon's and Supabase's pooled URLs and
 * Hyperdrive hand out connections: Debian's PgBouncer with `pool_mode = transaction` and no
 * ignored startup parameters (tests/support/pgbouncer.ts), so a session parameter, a session
 * lock or a named prepared statement would fail here. `npm run migrate` runs as the owner runs
 * it; the function instances run in process, each a service of its own, with PostgreSQL alone
 * (no Redis) counting the quotas.
 */
describe.skipIf(TEST_ENGINE !== 'shared' || !HAS_PGBOUNCER)(
  'the functions through PgBouncer in transaction mode',
  () => {
    let bouncer: ThrowawayPgBouncer;
    let build: BuildData;
    const services: ServiceFunction[] = [];
    const clients: pg.Client[] = [];

    beforeAll(async () => {
      build = buildDataOf(loadBuild(path.join(ROOT, 'dist')));
      bouncer = await startPgBouncer(inject('postgresUrl'));
    });
    afterAll(async () => {
      await Promise.all(services.map((service) => service.close()));
      await Promise.all(clients.map((client) => client.end()));
      await bouncer?.stop();
    });

    /** A new database, and its URL through PgBouncer. */
    async function database() {
      const direct = await freshDatabaseUrl();
      return { direct, pooled: bouncer.urlOf(direct) };
    }

    /** `npm run migrate` on the pooled URL, as a deploy step runs it. */
    async function migrate(url: string) {
      const outcome = await npmRun('migrate', { DATABASE_URL: url });
      expect(outcome.code, outcome.stderr).toBe(0);
      return outcome.stdout;
    }

    /** A function instance on the pooled URL, without Redis: PostgreSQL counts the quotas. */
    function instance(url: string, env: Record<string, string> = {}): ServiceFunction {
      const service = createFetchHandler({ DATABASE_URL: url, ALLOW_BUILD_MISMATCH: 'true', ...env }, build);
      services.push(service);
      return service;
    }

    /** A connection straight to the database (not through PgBouncer), to look at what was stored. */
    async function direct(url: string): Promise<pg.Client> {
      const client = new pg.Client({ connectionString: url });
      clients.push(client);
      await client.connect();
      return client;
    }

    const contactPost = (key: string, message: string) =>
      new Request('http://localhost:4321/api/v1/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', message }),
      });
    /** One client for every post, as the host would name it: the quota counts that client. */
    const CLIENT = { clientIp: '203.0.113.7' };

    /** Where PgBouncer's log stood when the running test began. */
    let logStart = 0;
    beforeEach(() => {
      logStart = bouncer.log().length;
    });
    /** What PgBouncer refuses from a client that relies on a session: none of it since the test began. */
    function expectNoSessionErrors() {
      const log = bouncer.log().slice(logStart);
      expect(log).toMatch(/login attempt/);
      expect(log).not.toMatch(/unsupported startup parameter/i);
      expect(log).not.toMatch(/prepared statement/i);
    }

    it('hands out connections per transaction and refuses any session parameter (statement_timeout, say)', async () => {
      expect(await bouncer.setting('pool_mode')).toBe('transaction');
      expect(await bouncer.setting('ignore_startup_parameters')).toBe('');
      const { pooled } = await database();
      const refused = new pg.Client({ connectionString: pooled, statement_timeout: 10_000 });
      await expect(refused.connect()).rejects.toThrow(/unsupported startup parameter: statement_timeout/);
      await refused.end().catch(() => undefined);
      expect(bouncer.log().slice(logStart)).toMatch(/unsupported startup parameter/);
    });

    it('migrates with npm run migrate, and two runs at once apply each migration once', async () => {
      const { direct: url, pooled } = await database();
      const outputs = await Promise.all([migrate(pooled), migrate(pooled)]);
      const applied = outputs.flatMap((output) =>
        (/\(applied ([\d, ]+)\)/.exec(output)?.[1] ?? '').split(', ').filter(Boolean).map(Number),
      );
      expect(applied).toEqual(MIGRATIONS.map((_, index) => index + 1));
      expect(outputs.filter((output) => output.includes('current'))).toHaveLength(1);
      const { rows } = await (
        await direct(url)
      ).query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((row) => row.version)).toEqual(applied);
      // Once more on a current database: nothing to do.
      expect(await migrate(pooled)).toMatch(/current/);
      expectNoSessionErrors();
    });

    it('stores each contact message once, replays it on another instance, and shares its signing secrets', async () => {
      const { direct: url, pooled } = await database();
      await migrate(pooled);
      const [first, second] = [instance(pooled), instance(pooled)];
      const key = crypto.randomUUID();
      const text = `Stored once through PgBouncer ${key}`;
      const fresh = await first.fetch(contactPost(key, text), CLIENT);
      expect(fresh.status).toBe(200);
      const replay = await second.fetch(contactPost(key, text), CLIENT);
      expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
      expect(await replay.json()).toEqual(await fresh.json());
      const stored = await (await direct(url)).query('SELECT 1 FROM messages WHERE message = $1', [text]);
      expect(stored.rowCount).toBe(1);

      // A cursor signed by one instance is taken by another: both read the same secrets.
      const page = await first.fetch(new Request('http://localhost:4321/api/v1/projects?limit=1'), CLIENT);
      expect(page.status).toBe(200);
      const { data, pagination } = (await page.json()) as {
        data: { slug: string }[];
        pagination: { nextCursor: string };
      };
      expect(pagination.nextCursor).toEqual(expect.any(String));
      const query = new URLSearchParams({ limit: '1', cursor: pagination.nextCursor });
      const next = await second.fetch(new Request(`http://localhost:4321/api/v1/projects?${query}`), CLIENT);
      expect(next.status).toBe(200);
      const nextSlugs = ((await next.json()) as { data: { slug: string }[] }).data.map((project) => project.slug);
      expect(nextSlugs).toHaveLength(1);
      expect(nextSlugs).not.toContain(data[0]?.slug);
      expectNoSessionErrors();
    });

    it('counts the contact quota exactly in PostgreSQL across two instances', async () => {
      const { direct: url, pooled } = await database();
      await migrate(pooled);
      const env = { CONTACT_RATE_LIMIT: '3/600' };
      const pair = [instance(pooled, env), instance(pooled, env)];
      const tag = crypto.randomUUID();
      const answers = await Promise.all(
        [0, 1, 2, 3, 4, 5].map((index) =>
          (pair[index % 2] as ServiceFunction).fetch(
            contactPost(crypto.randomUUID(), `Quota ${tag} number ${index}`),
            CLIENT,
          ),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
      const stored = await (await direct(url)).query('SELECT 1 FROM messages WHERE message LIKE $1', [`Quota ${tag}%`]);
      expect(stored.rowCount).toBe(3);
      expectNoSessionErrors();
    });

    it('runs a created job in the scheduled pass', async () => {
      const { pooled } = await database();
      await migrate(pooled);
      const [creator, cron, reader] = [instance(pooled), instance(pooled), instance(pooled)];
      // No waitUntil: nothing runs after the answer, so the scheduled pass has the job to run.
      const posted = await creator.fetch(
        new Request('http://localhost:4321/api/v1/jobs', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ task: 'stats' }),
        }),
        CLIENT,
      );
      expect(posted.status).toBe(202);
      const { jobId, status } = (await posted.json()) as { jobId: string; status: string };
      expect(status).toBe('pending');

      expect(await cron.runScheduled()).toMatchObject({ jobs: { started: 1 } });
      const job = await reader.fetch(new Request(`http://localhost:4321/api/v1/jobs/${jobId}`), CLIENT);
      expect(job.status).toBe(200);
      expect(await job.json()).toMatchObject({ jobId, status: 'succeeded' });
      expectNoSessionErrors();
    });
  },
);
