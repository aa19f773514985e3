import { describe, expect, it } from 'vitest';
import { created, ENV, pollUntilFinished } from '../support/jobs.ts';
import { startServer } from '../support/server.ts';

describe('job queue', () => {
  it('after a crash, fails the job that was running as interrupted and runs the waiting one', async () => {
    const env = { ...ENV, JOB_CONCURRENCY: '1' };
    const first = await startServer(env);
    const inFlight = await created(first.baseUrl, { task: 'digest' });
    const waiting = await created(first.baseUrl, { task: 'export' });
    await first.stop('SIGKILL');

    const second = await startServer(env, first.dataDir);
    try {
      const interrupted = await pollUntilFinished(second.baseUrl, inFlight.jobId);
      if (interrupted.status === 'failed') {
        expect(interrupted.error?.code).toBe('interrupted');
        expect(interrupted.result).toBeNull();
      } else {
        // The digest may have finished before the kill landed; it must never stay unfinished.
        expect(interrupted.status).toBe('succeeded');
      }
      expect((await pollUntilFinished(second.baseUrl, waiting.jobId)).status).toBe('succeeded');
    } finally {
      await second.stop();
    }
  });
});
