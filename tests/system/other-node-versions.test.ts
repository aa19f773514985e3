import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readlinkSync, realpathSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_VERSIONS, nodeBinaryPath, OTHER_MAJORS } from '../../scripts/fetch-node.mjs';
import { VALID, postContact } from '../support/contact.ts';
import { freshRedisUrl } from '../support/engines.ts';
import { created, ENV, pollUntilFinished } from '../support/jobs.ts';
import { callTool, connectMcp, structured } from '../support/mcp.ts';
import { freshDatabaseUrl } from '../support/postgres.ts';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';

/**
 * The production server on the other Node.js lines owners run (everything else runs on the
 * primary line, scripts/use-node.sh), on both engines, from the one install the primary line made:
 * better-sqlite3's N-API addon loads on every line, and the PostgreSQL and Redis drivers are plain
 * JavaScript. Their pinned binaries come from scripts/fetch-node.mjs (CI fetches them in .ci/run; a
 * first local run fetches them here).
 */

const run = promisify(execFile);
const ENGINES = ['embedded', 'shared'] as const;
const CASES = OTHER_MAJORS.flatMap((major) => ENGINES.map((engine) => [major, engine] as const));

beforeAll(async () => {
  const missing = OTHER_MAJORS.filter((major) => !existsSync(nodeBinaryPath(major)));
  if (missing.length === 0) return;
  const started = performance.now();
  await run(process.execPath, ['scripts/fetch-node.mjs', ...missing.map(String)], { cwd: ROOT });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`other-node-versions: fetched Node ${missing.join(' and ')} in ${seconds} s\n`);
});

describe.each(CASES)('the production server on Node %i, %s engine', (major, engine) => {
  let server: RunningServer;
  let stopped = false;

  beforeAll(async () => {
    const shared =
      engine === 'shared'
        ? await Promise.all([freshDatabaseUrl(), freshRedisUrl()]).then(([database, redis]) => ({
            DATABASE_URL: database,
            REDIS_URL: redis,
          }))
        : {};
    server = await startServer({ ...ENV, ...shared }, undefined, { nodeBinary: nodeBinaryPath(major) });
  });
  afterAll(async () => {
    if (!stopped) await server?.stop();
  });

  it('runs on the pinned binary', async () => {
    const binary = nodeBinaryPath(major);
    const { stdout } = await run(binary, ['-p', 'process.version']);
    expect(stdout.trim()).toBe(`v${NODE_VERSIONS[major as keyof typeof NODE_VERSIONS]}`);
    // The running process is that binary (Linux names a process's executable in /proc).
    if (existsSync('/proc/self/exe'))
      expect(readlinkSync(`/proc/${server.process.pid}/exe`)).toBe(realpathSync(binary));
  });

  it('says where it keeps state and counts quotas', () => {
    const listening = server.logLines.find((line) => line.message === 'listening')!;
    if (engine === 'shared') {
      expect(listening.storage).toMatch(/^postgresql \(/);
      expect(listening.quotas).toBe('shared (Redis; contact, keys and form tokens in PostgreSQL while Redis is down)');
    } else {
      expect(listening.storage).toBe(`sqlite (${server.dataDir}/portfolio.db)`);
      expect(listening.quotas).toBe('this instance only');
    }
    expect(listening.warning).toBeUndefined();
  });

  it('serves the home page, health and the projects API with a working cursor', async () => {
    const home = await fetch(server.baseUrl);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await home.text()).toMatch(/^<!DOCTYPE html>/i);
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);

    type Page = { data: { slug: string }[]; pagination: { nextCursor: string | null; hasMore: boolean } };
    const first = await fetch(`${server.baseUrl}/api/v1/projects?limit=5`);
    expect(first.status).toBe(200);
    const page = (await first.json()) as Page;
    expect(page.data).toHaveLength(5);
    expect(page.pagination.hasMore).toBe(true);
    const cursor = encodeURIComponent(page.pagination.nextCursor!);
    const next = await fetch(`${server.baseUrl}/api/v1/projects?limit=5&cursor=${cursor}`);
    expect(next.status).toBe(200);
    const second = (await next.json()) as Page;
    expect(second.data.length).toBeGreaterThan(0);
    const slugs = new Set(page.data.map((project) => project.slug));
    expect(second.data.some((project) => slugs.has(project.slug))).toBe(false);
  });

  it('takes a contact message once and replays it for the same Idempotency-Key', async () => {
    const key = randomUUID();
    const posted = await postContact(server.baseUrl, VALID, { key });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.headers.get('idempotent-replayed')).toBeNull();
    const replay = await postContact(server.baseUrl, VALID, { key });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(posted.body);
  });

  it('creates a test key that the next request accepts', async () => {
    const response = await fetch(`${server.baseUrl}/api/v1/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label: `node ${major}` }),
    });
    expect(response.status).toBe(201);
    const { key } = (await response.json()) as { key: string };
    const keyed = await fetch(`${server.baseUrl}/api/v1/sandbox/ping`, { headers: { 'x-api-key': key } });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('x-api-key-status')).toBe('valid');
  });

  it('runs a job to the end through its pollUrl', async () => {
    const job = await created(server.baseUrl);
    expect(new URL(job.pollUrl).pathname).toBe(`/api/v1/jobs/${job.jobId}`);
    const done = await pollUntilFinished(server.baseUrl, job.jobId);
    expect(done).toMatchObject({ task: 'export', status: 'succeeded', progress: 1, error: null });
  });

  it('answers MCP initialize and a tool call on /mcp', async () => {
    const client = await connectMcp(`${server.baseUrl}/mcp`);
    try {
      expect(client.getServerVersion()?.name).toBeTruthy();
      const listed = structured(await callTool(client, 'list_projects', { limit: 2 }));
      expect(listed.data).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('stops on SIGTERM with exit code 0', async () => {
    stopped = true;
    expect(await server.stop('SIGTERM')).toBe(0);
    // Nothing on stderr: no deprecation or experimental-feature warning from this Node either.
    expect(server.stderr()).toBe('');
  });
});
