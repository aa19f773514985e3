import { afterAll, describe, expect, it } from 'vitest';
import type { JobError, JobStore } from '../../functions/jobs/job-store.ts';
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

describe.each(STORE_ENGINES)('the job store on $name', ({ skip, open }) => {
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
});
