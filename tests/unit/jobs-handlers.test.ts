import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../functions/http/types.ts';
import { createJobHandler, getJobStatusHandler } from '../../functions/jobs/job-handlers.ts';
import { JobService } from '../../functions/jobs/job-service.ts';
import { Catalog } from '../../functions/projects/catalog.ts';
import { openDatabase } from '../../functions/state/sqlite/database.ts';
import { SqliteJobStore } from '../../functions/state/sqlite/sqlite-job-store.ts';
import { projectSource, refusal } from '../support/fixtures.ts';

const SITE = 'https://ada.example';
const jobs = await JobService.start({
  store: new SqliteJobStore(await openDatabase(mkdtempSync(path.join(tmpdir(), 'jobs-handlers-')))),
  // Three projects, so a digest takes a few steps: long enough to be seen running and pending.
  catalog: new Catalog(
    ['alpha', 'beta', 'gamma'].map((slug) => projectSource(slug, 2024, 'web', ['Go'])),
    SITE,
  ),
  concurrency: 1,
  queueLimit: 10,
  queuePerClient: 10,
  runningPerClient: 1,
  resultsPerClient: 10,
  retentionSeconds: 3600,
  leaseSeconds: 30,
});
afterAll(() => jobs.close());

const createJob = createJobHandler(jobs, { siteUrl: SITE, apiOrigin: null });
const getJobStatus = getJobStatusHandler(jobs);
/** The jobs handlers charge nothing themselves (the router charges their quota). */
const production = {
  sandbox: false,
  tier: 'anonymous',
  keyId: null,
  keyStatus: 'none',
  quotaKey: '127.0.0.1',
  clientKey: '127.0.0.1',
  charge: () => ({}),
  refund: () => Promise.resolve(),
} as const;
const sandbox = { ...production, sandbox: true };

function request(body: string, query = '', contentType: string | null = 'application/json'): ApiRequest {
  return {
    method: 'POST',
    path: '/api/v1/jobs',
    query: new URLSearchParams(query),
    headers: contentType === null ? {} : { 'content-type': contentType },
    clientIp: '127.0.0.1',
    requestId: 'test',
    readBody: async () => Buffer.from(body),
  };
}

describe('createJob handler', () => {
  it('answers 202 with jobId, status and pollUrl, and Location equal to pollUrl', async () => {
    const response = await createJob(request(''), {}, production);
    expect(response.status).toBe(202);
    const body = JSON.parse(String(response.body)) as { jobId: string; status: string; pollUrl: string };
    expect(Object.keys(body)).toEqual(['jobId', 'status', 'pollUrl']);
    expect(body.pollUrl).toBe(`${SITE}/api/v1/jobs/${body.jobId}`);
    expect(response.headers).toMatchObject({ location: body.pollUrl, 'retry-after': '1', 'cache-control': 'no-store' });
  });

  it('refuses a post not declared as JSON, an empty one too, so a foreign page cannot send it without a preflight', async () => {
    for (const [body, contentType] of [
      ['', null],
      ['', 'text/plain'],
      ['{}', 'text/plain'],
    ] as const) {
      expect(
        await refusal(() => createJob(request(body, '', contentType), {}, production)),
        `${contentType} ${body}`,
      ).toMatchObject({ code: 'unsupported_media_type' });
    }
  });

  it.each([
    ['an array', '[]', 'body'],
    ['null', 'null', 'body'],
    ['unknown fields', '{"task": "stats", "when": "now", "priority": 1}', 'when'],
  ])('refuses %s as the body with validation_failed', async (_label, body, field) => {
    const error = await refusal(() => createJob(request(body), {}, production));
    expect(error.code).toBe('validation_failed');
    expect(error.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  it('refuses unknown query parameters', async () => {
    expect((await refusal(() => createJob(request('', 'x=1'), {}, production))).code).toBe('unknown_parameter');
  });
});

describe('getJobStatus handler', () => {
  it('returns the whole view, with no-store and Retry-After while unfinished', async () => {
    const first = await jobs.create('digest', {}, production);
    const second = await jobs.create('digest', {}, production);
    const response = await getJobStatus(request(''), { jobId: second.jobId }, production);
    expect(response.status).toBe(200);
    expect(JSON.parse(String(response.body))).toMatchObject({
      jobId: second.jobId,
      status: 'pending',
      result: null,
      error: null,
    });
    expect(response.headers).toMatchObject({ 'cache-control': 'no-store', 'retry-after': '2' });
    expect((await getJobStatus(request(''), { jobId: first.jobId }, production)).headers['retry-after']).toBe('1');
  });

  it('answers job_not_found for unknown ids, other modes and odd ids, echoing only well-formed ones', async () => {
    const sandboxJob = await jobs.create('stats', {}, sandbox);
    expect((await refusal(() => getJobStatus(request(''), { jobId: sandboxJob.jobId }, production))).code).toBe(
      'job_not_found',
    );
    expect((await refusal(() => getJobStatus(request(''), { jobId: 'job_missing' }, production))).message).toContain(
      'job_missing',
    );
    const odd = await refusal(() => getJobStatus(request(''), { jobId: '<script>' }, production));
    expect([odd.code, odd.message.includes('script')]).toEqual(['job_not_found', false]);
  });
});
