import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { JobService } from '../../functions/jobs/job-service.ts';
import type { JobServiceDependencies } from '../../functions/jobs/job-worker.ts';
import type { JobView } from '../../functions/jobs/job-store.ts';
import { TASKS } from '../../functions/jobs/tasks.ts';
import { Catalog } from '../../functions/projects/catalog.ts';
import { openDatabase, type Db } from '../../functions/state/sqlite/database.ts';
import { SqliteJobStore } from '../../functions/state/sqlite/sqlite-job-store.ts';
import { projectSource, refusal } from '../support/fixtures.ts';
import { waitFor } from '../support/webhook.ts';

const catalog = new Catalog(
  ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((slug, i) =>
    projectSource(slug, 2020 + i, i % 2 ? 'web' : 'data', ['Go']),
  ),
  'https://ada.example',
);

const opened: JobService[] = [];
/** One live client and its sandbox twin; the share tests add others. */
const LIVE = { sandbox: false, quotaKey: '192.0.2.1' };
const SANDBOX = { sandbox: true, quotaKey: '192.0.2.1' };

async function service(options: Partial<JobServiceDependencies> = {}, reopened?: Db) {
  const db = reopened ?? (await openDatabase(mkdtempSync(path.join(tmpdir(), 'jobs-'))));
  const jobs = await JobService.start({
    store: new SqliteJobStore(db),
    catalog,
    concurrency: 2,
    queueLimit: 10,
    queuePerClient: 10,
    runningPerClient: 2,
    resultsPerClient: 10,
    retentionSeconds: 3600,
    leaseSeconds: 30,
    ...options,
  });
  opened.push(jobs);
  return { jobs, db };
}

afterEach(() => {
  for (const jobs of opened.splice(0)) jobs.close();
});

/** Polls until the job leaves pending and running, as a client would; the deadline only catches a hang. */
async function finished(jobs: JobService, jobId: string, sandbox = false): Promise<JobView> {
  let job: JobView | undefined;
  await waitFor(async () => {
    job = await jobs.get(jobId, sandbox);
    if (job === undefined) throw new Error(`job ${jobId} disappeared`);
    return job.status === 'succeeded' || job.status === 'failed';
  }, `job ${jobId} to finish`);
  return job!;
}

describe('JobService', () => {
  it('runs the default task to success; the result appears only then', async () => {
    const { jobs } = await service();
    const created = await jobs.create(undefined, undefined, LIVE);
    expect(created.jobId).toMatch(/^job_[A-Za-z0-9_-]{22}$/);
    expect(created).toMatchObject({ task: 'export', result: null, error: null });
    expect(['pending', 'running']).toContain(created.status);
    const done = await finished(jobs, created.jobId);
    expect(done).toMatchObject({ status: 'succeeded', progress: 1, error: null, result: { count: 5 } });
    expect(Date.parse(done.updatedAt)).toBeGreaterThanOrEqual(Date.parse(done.createdAt));
  });

  it('runs stats and a filtered digest with their inputs', async () => {
    const { jobs } = await service();
    const stats = await finished(jobs, (await jobs.create('stats', {}, LIVE)).jobId);
    expect(stats.result).toMatchObject({ total: 5, byDomain: { data: 3, web: 2 } });
    const digest = await jobs.create('digest', { domain: 'Web' }, LIVE);
    let sawProgress = false;
    let job = await jobs.get(digest.jobId, false);
    while (job?.status === 'pending' || job?.status === 'running') {
      expect(job.result).toBeNull();
      if (job.progress > 0 && job.progress < 1) sawProgress = true;
      await new Promise((resolve) => setTimeout(resolve, 10));
      job = await jobs.get(digest.jobId, false);
    }
    expect(job).toMatchObject({ status: 'succeeded', result: { projects: 2 } });
    expect(sawProgress).toBe(true);
  });

  it('refuses a task that is not a string, an unknown task and bad input', async () => {
    const { jobs } = await service();
    const notString = await refusal(() => jobs.create(42, undefined, LIVE));
    expect([notString.code, notString.errors]).toEqual([
      'validation_failed',
      [{ field: 'task', problem: 'must be a string' }],
    ]);
    const unknown = await refusal(() => jobs.create('mine-bitcoin', undefined, LIVE));
    expect(unknown.code).toBe('unknown_task');
    expect(unknown.hint).toContain('export (the default), stats, digest');
    const badInput = await refusal(() => jobs.create('digest', { domain: 7, color: 'red' }, LIVE));
    expect(badInput.code).toBe('validation_failed');
    expect(badInput.errors).toEqual(
      expect.arrayContaining([
        { field: 'input.domain', problem: 'must be a string' },
        { field: 'input.color', problem: 'is not a field of this task' },
      ]),
    );
    expect((await refusal(() => jobs.create('stats', [], LIVE))).errors).toEqual([
      { field: 'input', problem: 'must be an object' },
    ]);
  });

  it('refuses a job past concurrency + queueLimit with queue_full and Retry-After', async () => {
    const { jobs } = await service({ concurrency: 1, queueLimit: 1 });
    const first = await jobs.create('digest', {}, LIVE);
    const second = await jobs.create('digest', {}, LIVE);
    expect([first.status, second.status]).toEqual(['running', 'pending']);
    const full = await refusal(() => jobs.create('digest', {}, LIVE));
    expect(full.code).toBe('queue_full');
    expect(full.status).toBe(503);
    expect(full.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect((await finished(jobs, second.jobId)).status).toBe('succeeded');
    expect((await jobs.create('stats', {}, LIVE)).status).toBe('running');
  });

  it('gives each client a share of the queue: past it 429 too_many_jobs, while others still get in', async () => {
    const { jobs } = await service({ concurrency: 1, queueLimit: 10, queuePerClient: 2, runningPerClient: 1 });
    const a = { sandbox: false, quotaKey: '198.51.100.1' };
    const own = [
      await jobs.create('digest', {}, a),
      await jobs.create('digest', {}, a),
      await jobs.create('digest', {}, a),
    ];
    expect(own.map((job) => job.status)).toEqual(['running', 'pending', 'pending']);
    const refused = await refusal(() => jobs.create('digest', {}, a));
    expect([refused.status, refused.code]).toEqual([429, 'too_many_jobs']);
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.hint).toContain('2 jobs waiting and 1 running');
    // The share counts the client across modes: its sandbox jobs wait in the same share.
    expect((await refusal(() => jobs.create('stats', {}, { ...a, sandbox: true }))).code).toBe('too_many_jobs');
    expect((await jobs.create('stats', {}, { sandbox: false, quotaKey: '198.51.100.2' })).status).toBe('pending');
  });

  it('lets no client hold every running slot while another waits', async () => {
    const { jobs } = await service({ concurrency: 2, runningPerClient: 1 });
    const a = { sandbox: false, quotaKey: 'key:a' };
    const first = await jobs.create('digest', {}, a);
    const second = await jobs.create('digest', {}, a);
    const other = await jobs.create('digest', {}, { sandbox: false, quotaKey: 'key:b' });
    expect([first.status, second.status, other.status]).toEqual(['running', 'pending', 'running']);
  });

  it('keeps live and sandbox queues apart and starts live jobs first', async () => {
    const { jobs } = await service({ concurrency: 1, queueLimit: 2, runningPerClient: 1 });
    const flood = [];
    for (const quotaKey of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
      flood.push(await jobs.create('digest', {}, { sandbox: true, quotaKey }));
    expect(flood.map((job) => job.status)).toEqual(['running', 'pending', 'pending']);
    expect((await refusal(() => jobs.create('digest', {}, { sandbox: true, quotaKey: '203.0.113.4' }))).code).toBe(
      'queue_full',
    );
    const live = await jobs.create('stats', {}, LIVE);
    expect(live.status).toBe('pending');
    await finished(jobs, live.jobId);
    // The live job, created last, ran as soon as the first sandbox job freed the slot.
    expect((await jobs.get(flood[2]!.jobId, true))?.status).toBe('pending');
  });

  it("keeps a client's newest finished jobs up to resultsPerClient and deletes older ones", async () => {
    const { jobs } = await service({ resultsPerClient: 2 });
    const other = await finished(
      jobs,
      (await jobs.create('stats', {}, { sandbox: false, quotaKey: '192.0.2.99' })).jobId,
    );
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await finished(jobs, (await jobs.create('stats', {}, LIVE)).jobId)).jobId);
    expect(await Promise.all(ids.map(async (id) => (await jobs.get(id, false))?.status ?? 'gone'))).toEqual([
      'gone',
      'gone',
      'succeeded',
      'succeeded',
    ]);
    expect((await jobs.get(other.jobId, false))?.status).toBe('succeeded');
  });

  it('applies a lowered cap to jobs finished before a restart', async () => {
    const { jobs: before, db } = await service({ resultsPerClient: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await finished(before, (await before.create('stats', {}, LIVE)).jobId)).jobId);
    before.close();
    const { jobs: after } = await service({ resultsPerClient: 1 }, db);
    expect(await Promise.all(ids.map(async (id) => (await after.get(id, false))?.status ?? 'gone'))).toEqual([
      'gone',
      'gone',
      'succeeded',
    ]);
  });

  it('keeps sandbox and production jobs apart', async () => {
    const { jobs } = await service();
    const sandboxJob = await jobs.create('stats', {}, SANDBOX);
    const productionJob = await jobs.create('stats', {}, LIVE);
    expect(await jobs.get(sandboxJob.jobId, false)).toBeUndefined();
    expect(await jobs.get(productionJob.jobId, true)).toBeUndefined();
    expect((await finished(jobs, sandboxJob.jobId, true)).status).toBe('succeeded');
    expect(await jobs.get('job_unknown', false)).toBeUndefined();
  });

  it('treats expired jobs as gone', async () => {
    const { jobs, db } = await service();
    const job = await jobs.create('stats', {}, LIVE);
    db.prepare('UPDATE jobs SET expires_at = ? WHERE id = ?').run(Date.now() - 1, job.jobId);
    expect(await jobs.get(job.jobId, false)).toBeUndefined();
  });

  it('after a restart fails the job that was running and runs the ones still pending', async () => {
    // Each digest run, so that the test can wait for the closed service's to end rather than guess how long it takes.
    const digests: Promise<unknown>[] = [];
    const execute = TASKS.digest.execute;
    const spy = vi.spyOn(TASKS.digest, 'execute').mockImplementation((input, context) => {
      const run = execute(input, context);
      digests.push(run);
      return run;
    });
    onTestFinished(() => spy.mockRestore());
    const { jobs: before, db } = await service({ concurrency: 1 });
    const running = await before.create('digest', {}, LIVE);
    const pending = await before.create('export', {}, LIVE);
    expect([running.status, pending.status]).toEqual(['running', 'pending']);
    before.close();

    const { jobs: after } = await service({ concurrency: 1 }, db);
    const interrupted = await after.get(running.jobId, false);
    expect(interrupted).toMatchObject({ status: 'failed', result: null, error: { code: 'interrupted' } });
    expect(interrupted?.error?.message).toContain('create it again');
    expect((await finished(after, pending.jobId)).status).toBe('succeeded');
    // The closed service's abandoned digest must not write over the new service's verdict: once its
    // run has stopped (aborted by close()), and the service has had its turn to act on that, look.
    expect(digests).toHaveLength(1);
    await Promise.allSettled(digests);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await after.get(running.jobId, false))?.status).toBe('failed');
  });
});
