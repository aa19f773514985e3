import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readlinkSync, realpathSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_VERSIONS, nodeBinaryPath } from '../../scripts/fetch-node.mjs';
import { VALID, postContact } from '../support/contact.ts';
import { freshRedisUrl } from '../support/engines.ts';
import { created, ENV, pollUntilFinished } from '../support/jobs.ts';
import { callTool, connectMcp, structured } from '../support/mcp.ts';
import { freshDatabaseUrl } from '../support/postgres.ts';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';

/**
 * The production server on the Node.js lines that owners run (22 and 24), while everything else
 * runs on the machine's own Node. Their pinned binaries come from scripts/fetch-node.mjs (CI fetches
 * them in .ci/run; a first local run fetches them here). Only the shared engine can run there:
 * better-sqlite3 is a native addon built for the machine's Node, while the PostgreSQL and Redis
 * drivers are plain JavaScript, and each engine's driver loads only when that engine is selected.
 */

const run = promisify(execFile);
const MAJORS = Object.keys(NODE_VERSIONS).map(Number);

beforeAll(async () => {
  const missing = MAJORS.filter((major) => !existsSync(nodeBinaryPath(major)));
  if (missing.length === 0) return;
  const started = performance.now();
  await run(process.execPath, ['scripts/fetch-node.mjs', ...missing.map(String)], { cwd: ROOT });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`other-node-versions: fetched Node ${missing.join(' and ')} in ${seconds} s\n`);
});

describe.each(MAJORS)('the production server on Node %i', (major) => {
  let server: RunningServer;
  let stopped = false;

  beforeAll(async () => {
    const [database, redis] = await Promise.all([freshDatabaseUrl(), freshRedisUrl()]);
    server = await startServer({ ...ENV, DATABASE_URL: database, REDIS_URL: redis }, undefined, {
      nodeBinary: nodeBinaryPath(major),
    });
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

  it('says it keeps state in PostgreSQL and counts quotas in Redis', () => {
    const listening = server.logLines.find((line) => line.message === 'listening')!;
    expect(listening.storage).toMatch(/^postgresql \(/);
    expect(listening.quotas).toBe('shared (Redis)');
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

describe('the embedded engine on another Node', () => {
  it('refuses to start with a message that says what to do, instead of a stack trace', async () => {
    const major = MAJORS[0]!;
    const refused = await startServer(ENV, undefined, { nodeBinary: nodeBinaryPath(major) }).then(
      () => null,
      (error: unknown) => String(error),
    );
    expect(refused).toContain('exited with 1');
    expect(refused).toContain(
      `SQLite (better-sqlite3) cannot load in Node.js v${NODE_VERSIONS[major as keyof typeof NODE_VERSIONS]}`,
    );
    expect(refused).toContain('npm rebuild better-sqlite3');
    expect(refused).not.toMatch(/\n\s+at /);
  });
});
