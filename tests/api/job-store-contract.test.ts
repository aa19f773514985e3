import { afterAll, describe, expect, it } from 'vitest';
import type { JobError, JobStore, RunShares } from '../../functions/jobs/job-store.ts';
import type { Storage } from '../../functions/state/storage.ts';
import { closeOpened, STORE_ENGINES } from '../support/store-engines.ts';

/**
 * One contract for the job store, run against each engine: what a client and a worker see of a
 * job must not depend on where it is kept. Each test opens a store of its own (a new data
 * directory, a new database).
 */
const T = 1_800_000_000_000;
const HOUR = 3_600_000;
const INTERRUPTED: JobError = { code: 'interrupted', message: 'The worker stopped.' };
const SHARES = { queuePerClient: 10, queueLimit: 10 };
const RUN = { concurrency: 4, runningPerClient: 4 };

afterAll(closeOpened);

describe.each(STORE_ENGINES)('the job store on $name', ({ name, skip, open, instances }) => {
  const jobs = async (): Promise<JobStore> => (await open()).jobs;
  const enqueue = (store: JobStore, id: string, owner = 'client-a', sandbox = false) =>
    store.enqueue({ id, task: 'stats', input: { n: 1 }, owner, sandbox }, SHARES, T, T + HOUR);

  it.skipIf(skip)('shows a new job as pending with no progress, to its own mode only', async () => {
    const store = await jobs();
    expect(await enqueue(store, 'job-1')).toEqual({ queued: true });
    expect(await store.find('job-1', false, T + 1)).toMatchObject({
      jobId: 'job-1',
      task: 'stats',
      status: 'pending',
      progress: 0,
      result: null,
      error: null,
    });
    expect(await store.find('job-1', true, T + 1)).toBeUndefined();
    expect(await store.find('job-1', false, T + HOUR + 1)).toBeUndefined();
    expect([...(await store.findMany(['job-1', 'job-unknown'], false, T + 1)).keys()]).toEqual(['job-1']);
  });

  it.skipIf(skip)('runs a claimed job to its result, and counts the attempt', async () => {
    const store = await jobs();
    await enqueue(store, 'job-1');
    expect(await store.claimNext('worker-a', RUN, 1000, T + 1)).toMatchObject({
      id: 'job-1',
      task: 'stats',
      input: { n: 1 },
      attempt: 1,
    });
    expect(await store.claimNext('worker-b', RUN, 1000, T + 2)).toBeUndefined();
    await store.setProgress('job-1', 'worker-a', 0.5, T + 3);
    expect(await store.find('job-1', false, T + 4)).toMatchObject({ status: 'running', progress: 0.5 });
    // An earlier report that lands late (reports are not awaited one by one) does not move it back.
    await store.setProgress('job-1', 'worker-a', 0.25, T + 4);
    expect(await store.find('job-1', false, T + 4)).toMatchObject({ status: 'running', progress: 0.5 });
    expect(await store.finish('job-1', 'worker-a', { result: { total: 3 } }, 10, T + 5)).toBe(true);
    expect(await store.find('job-1', false, T + 6)).toMatchObject({
      status: 'succeeded',
      progress: 1,
      result: { total: 3 },
      error: null,
    });
  });

  it.skipIf(skip)(
    'puts a job whose worker died back to pending with no progress, then fails it after its last attempt',
    async () => {
      const store = await jobs();
      await enqueue(store, 'job-1');
      await store.claimNext('worker-a', RUN, 1000, T);
      await store.setProgress('job-1', 'worker-a', 0.5, T + 10);
      expect(await store.reapExpired(2, INTERRUPTED, T + 1001)).toBe(1);
      // The next run starts from the beginning, so the job says it has done nothing yet.
      expect(await store.find('job-1', false, T + 1002)).toMatchObject({ status: 'pending', progress: 0, error: null });
      expect(await store.claimNext('worker-b', RUN, 1000, T + 1003)).toMatchObject({ id: 'job-1', attempt: 2 });
      await store.setProgress('job-1', 'worker-b', 0.25, T + 1004);
      expect(await store.reapExpired(2, INTERRUPTED, T + 2004)).toBe(1);
      expect(await store.find('job-1', false, T + 2005)).toMatchObject({
        status: 'failed',
        progress: 0.25,
        result: null,
        error: INTERRUPTED,
      });
    },
  );

  it.skipIf(skip)('fences a worker whose lease was taken over: its progress and result are ignored', async () => {
    const store = await jobs();
    await enqueue(store, 'job-1');
    await store.claimNext('worker-a', RUN, 1000, T);
    expect(await store.renewLease('job-1', 'worker-a', 1000, T + 900)).toBe(true);
    expect(await store.reapExpired(3, INTERRUPTED, T + 1901)).toBe(1);
    await store.claimNext('worker-b', RUN, 1000, T + 2000);
    expect(await store.renewLease('job-1', 'worker-a', 1000, T + 2001)).toBe(false);
    await store.setProgress('job-1', 'worker-a', 0.9, T + 2002);
    expect(await store.finish('job-1', 'worker-a', { result: { late: true } }, 10, T + 2003)).toBe(false);
    expect(await store.find('job-1', false, T + 2004)).toMatchObject({ status: 'running', progress: 0, result: null });
    expect(await store.finish('job-1', 'worker-b', { error: INTERRUPTED }, 10, T + 2005)).toBe(true);
    expect(await store.find('job-1', false, T + 2006)).toMatchObject({ status: 'failed', error: INTERRUPTED });
  });

  it.skipIf(skip)('refuses a job past a client’s share or a full queue, naming which', async () => {
    const store = await jobs();
    const small = { queuePerClient: 2, queueLimit: 3 };
    const add = (id: string, owner: string) =>
      store.enqueue({ id, task: 'stats', input: {}, owner, sandbox: false }, small, T, T + HOUR);
    expect(await add('job-1', 'a')).toEqual({ queued: true });
    expect(await add('job-2', 'a')).toEqual({ queued: true });
    expect(await add('job-3', 'a')).toEqual({ queued: false, full: 'client', waiting: 2 });
    expect(await add('job-4', 'b')).toEqual({ queued: true });
    expect(await add('job-5', 'c')).toEqual({ queued: false, full: 'queue', waiting: 3 });
  });

  it.skipIf(skip)(
    'fails the jobs left running at a worker’s start on SQLite only, where they died with the process',
    async () => {
      const store = await jobs();
      await enqueue(store, 'job-1');
      await enqueue(store, 'job-2');
      await store.claimNext('worker-a', RUN, HOUR, T);
      // On PostgreSQL other instances may be running them: they are left to the reaper.
      const sqlite = name === 'SQLite';
      expect(await store.recoverAtStart(INTERRUPTED, T + 1)).toBe(sqlite ? 1 : 0);
      expect(await store.find('job-1', false, T + 2)).toMatchObject(
        sqlite ? { status: 'failed', error: INTERRUPTED } : { status: 'running', error: null },
      );
      expect(await store.find('job-2', false, T + 2)).toMatchObject({ status: 'pending' });
    },
  );

  it.skipIf(skip)(
    'runs each of 200 jobs once from two instances, within the concurrency and each client’s share',
    async () => {
      const [a, b] = (await instances(2)) as [Storage, Storage];
      const shares = { queuePerClient: 1000, queueLimit: 1000 };
      for (let index = 0; index < 200; index++) {
        const owner = `client-${index % 8}`;
        const job = { id: `job-${index}`, task: 'echo', input: { index }, owner, sandbox: index % 3 === 0 };
        expect(await (index % 2 === 0 ? a : b).jobs.enqueue(job, shares, T + index, T + HOUR)).toEqual({
          queued: true,
        });
      }
      const run: RunShares = { concurrency: 4, runningPerClient: 1 };
      const started = new Map<string, number>();
      const running = new Map<string, number>();
      let total = 0;
      let most = 0;
      const worker = async (store: JobStore, name: string) => {
        for (;;) {
          const job = await store.claimNext(name, run, 60_000, T + 10_000);
          if (job === undefined) {
            if (started.size === 200) return;
            await new Promise((resolve) => setTimeout(resolve, 2));
            continue;
          }
          started.set(job.id, (started.get(job.id) ?? 0) + 1);
          total += 1;
          running.set(job.owner, (running.get(job.owner) ?? 0) + 1);
          most = Math.max(most, total);
          expect(running.get(job.owner)).toBe(1);
          expect(job.attempt).toBe(1);
          // Counted down before the finish commits, so these counts never exceed what the store counts.
          total -= 1;
          running.set(job.owner, (running.get(job.owner) ?? 1) - 1);
          expect(await store.finish(job.id, name, { result: { echoed: job.input } }, 1000, T + 10_001)).toBe(true);
        }
      };
      await Promise.all(
        Array.from({ length: 8 }, (_, index) => worker(index % 2 === 0 ? a.jobs : b.jobs, `worker-${index}`)),
      );
      expect(started.size).toBe(200);
      expect([...started.values()].every((times) => times === 1)).toBe(true);
      expect(most).toBeLessThanOrEqual(run.concurrency);
      const views = await a.jobs.findMany(
        Array.from({ length: 200 }, (_, index) => `job-${index}`),
        false,
        T + 20_000,
      );
      expect(views.size).toBe(133);
      expect(views.get('job-1')).toMatchObject({ status: 'succeeded', progress: 1, result: { echoed: { index: 1 } } });
    },
  );

  it.skipIf(skip)(
    'never lets more jobs run than the concurrency, nor a client more than its share, under concurrent claims',
    async () => {
      const [a, b] = (await instances(2)) as [Storage, Storage];
      const shares = { queuePerClient: 100, queueLimit: 100 };
      for (let index = 0; index < 40; index++) {
        const job = { id: `job-${index}`, task: 'echo', input: {}, owner: `client-${index % 5}`, sandbox: false };
        await a.jobs.enqueue(job, shares, T + index, T + HOUR);
      }
      const claims = await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          (index % 2 === 0 ? a : b).jobs.claimNext(
            `w${index}`,
            { concurrency: 4, runningPerClient: 1 },
            60_000,
            T + 100,
          ),
        ),
      );
      const claimed = claims.filter((job) => job !== undefined);
      expect(claimed).toHaveLength(4);
      expect(new Set(claimed.map((job) => job.owner)).size).toBe(4);
      // Oldest first: the first four jobs belong to four different clients.
      expect(claimed.map((job) => job.id).sort()).toEqual(['job-0', 'job-1', 'job-2', 'job-3']);
    },
  );

  it.skipIf(skip)(
    'fences a worker that lost its lease to another instance, and fails a job after its last attempt',
    async () => {
      const [a, b] = (await instances(2)) as [Storage, Storage];
      await enqueue(a.jobs, 'job-lease');
      expect(await a.jobs.claimNext('a', RUN, 1000, T)).toMatchObject({ id: 'job-lease', attempt: 1 });
      expect(await a.jobs.renewLease('job-lease', 'a', 1000, T + 900)).toBe(true);
      expect(await b.jobs.reapExpired(2, INTERRUPTED, T + 1900)).toBe(0);
      expect(await b.jobs.reapExpired(2, INTERRUPTED, T + 1901)).toBe(1);
      expect(await b.jobs.claimNext('b', RUN, 1000, T + 2000)).toMatchObject({ id: 'job-lease', attempt: 2 });

      expect(await a.jobs.renewLease('job-lease', 'a', 1000, T + 2001)).toBe(false);
      await a.jobs.setProgress('job-lease', 'a', 0.9, T + 2002);
      expect(await a.jobs.finish('job-lease', 'a', { result: { late: true } }, 10, T + 2003)).toBe(false);
      await b.jobs.setProgress('job-lease', 'b', 0.5, T + 2004);
      expect(await a.jobs.find('job-lease', false, T + 2005)).toMatchObject({
        status: 'running',
        progress: 0.5,
        result: null,
      });
      expect(await a.jobs.find('job-lease', true, T + 2005)).toBeUndefined();

      expect(await a.jobs.reapExpired(2, INTERRUPTED, T + 3001)).toBe(1);
      expect(await b.jobs.finish('job-lease', 'b', { result: {} }, 10, T + 3002)).toBe(false);
      expect(await b.jobs.find('job-lease', false, T + 3003)).toMatchObject({ status: 'failed', error: INTERRUPTED });
      expect(await a.jobs.recoverAtStart(INTERRUPTED, T + 3004)).toBe(0);
    },
  );

  it.skipIf(skip)('keeps the queue shares under concurrent enqueues from two instances', async () => {
    const [a, b] = (await instances(2)) as [Storage, Storage];
    const shares = { queuePerClient: 5, queueLimit: 12 };
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        (index % 2 === 0 ? a : b).jobs.enqueue(
          { id: `job-${index}`, task: 'echo', input: {}, owner: `client-${index % 3}`, sandbox: false },
          shares,
          T,
          T + HOUR,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.queued)).toHaveLength(12);
    for (const outcome of outcomes) {
      if (outcome.queued) continue;
      expect(outcome.waiting).toBe(outcome.full === 'client' ? 5 : 12);
    }
    const queuedPerClient = [0, 1, 2].map(
      (client) => outcomes.filter((outcome, index) => outcome.queued && index % 3 === client).length,
    );
    expect(Math.max(...queuedPerClient)).toBeLessThanOrEqual(5);
    // Sandbox jobs wait in a queue of their own.
    const sandbox = await a.jobs.enqueue(
      { id: 'job-s', task: 'echo', input: {}, owner: 'other', sandbox: true },
      shares,
      T,
      T + 1,
    );
    expect(sandbox).toEqual({ queued: true });
  });

  it.skipIf(skip)('keeps each client’s newest finished jobs and purges expired ones', async () => {
    const store = await jobs();
    const run = { concurrency: 1, runningPerClient: 1 };
    for (let index = 0; index < 3; index++) {
      await store.enqueue(
        { id: `job-${index}`, task: 'echo', input: {}, owner: 'c', sandbox: false },
        SHARES,
        T,
        T + 10_000,
      );
      const job = await store.claimNext('w', run, 1000, T + index);
      expect(await store.finish(job?.id as string, 'w', { error: INTERRUPTED }, 2, T + index)).toBe(true);
    }
    const views = await store.findMany(['job-0', 'job-1', 'job-2'], false, T + 10);
    expect([...views.keys()].sort()).toEqual(['job-1', 'job-2']);
    expect(await store.purge(1, T + 10)).toBe(1);
    expect(await store.purge(1, T + 10_000)).toBe(1);
  });
});
