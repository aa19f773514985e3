import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationErrorSchema } from '../support/schemas.ts';
import { startApi, type InProcessApi } from '../support/api.ts';

let server: InProcessApi;

beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '40/60' });
});
afterAll(() => server.stop());

async function batch(body: unknown, options: { query?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${server.baseUrl}/api/v1/batch${options.query ?? ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: JSON.stringify(body),
  });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

async function createJob(query = ''): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/v1/jobs${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ task: 'stats' }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { jobId: string }).jobId;
}

describe('POST /api/v1/batch', () => {
  it('answers every operation in request order, counting one read each', async () => {
    const jobId = await createJob();
    const { response, body } = await batch({
      operations: [
        { op: 'getProject', id: 'leakhound' },
        { op: 'getJobStatus', id: jobId },
        { op: 'getProject', id: 'trailhead' },
      ],
    });
    expect(response.status).toBe(200);
    const results = body.results as {
      index: number;
      op: string;
      id: string;
      status: number;
      data: Record<string, unknown>;
    }[];
    expect(results.map((r) => [r.index, r.op, r.id, r.status])).toEqual([
      [0, 'getProject', 'leakhound', 200],
      [1, 'getJobStatus', jobId, 200],
      [2, 'getProject', 'trailhead', 200],
    ]);
    const single = await (await fetch(`${server.baseUrl}/api/v1/projects/leakhound`)).json();
    expect(results[0]!.data).toEqual(single);
    expect(results[1]!.data.jobId).toBe(jobId);
    expect(
      Number(response.headers.get('ratelimit-limit')) - Number(response.headers.get('ratelimit-remaining')),
    ).toBeGreaterThanOrEqual(3);
  });

  it('is all or nothing: one failure returns no result and lists every failure', async () => {
    const { response, body } = await batch({
      operations: [
        { op: 'getProject', id: 'leakhound' },
        { op: 'getProject', id: 'no-such-project' },
        { op: 'getJobStatus', id: 'job_missing' },
      ],
    });
    expect(response.status).toBe(422);
    expect(body.code).toBe('batch_failed');
    expect(body.results).toBeUndefined();
    expect(body.errors).toEqual([
      { index: 1, op: 'getProject', id: 'no-such-project', code: 'project_not_found', message: expect.any(String) },
      { index: 2, op: 'getJobStatus', id: 'job_missing', code: 'job_not_found', message: expect.any(String) },
    ]);
  });

  it('keeps sandbox jobs out of production batches', async () => {
    const sandboxJob = await createJob('?sandbox=true');
    expect((await batch({ operations: [{ op: 'getJobStatus', id: sandboxJob }] })).response.status).toBe(422);
    expect(
      (await batch({ operations: [{ op: 'getJobStatus', id: sandboxJob }] }, { query: '?sandbox=true' })).response
        .status,
    ).toBe(200);
  });

  it.each([
    ['no operations', { operations: [] }, 'operations'],
    [
      'too many operations',
      { operations: Array.from({ length: 26 }, () => ({ op: 'getProject', id: 'leakhound' })) },
      'operations',
    ],
    [
      'an unknown op',
      {
        operations: [
          { op: 'getProject', id: 'a' },
          { op: 'deleteProject', id: 'a' },
        ],
      },
      'operations[1].op',
    ],
    ['a missing id', { operations: [{ op: 'getProject' }] }, 'operations[0].id'],
    ['an extra field', { operations: [{ op: 'getProject', id: 'a', force: true }] }, 'operations[0].force'],
    ['no operations field', {}, 'operations'],
  ])('refuses %s with a 400 naming the offending place', async (_label, body, field) => {
    const answer = await batch(body);
    expect(answer.response.status).toBe(400);
    expect(answer.body.code).toBe('validation_failed');
    expect(validationErrorSchema.parse(answer.body).errors.map((e) => e.field)).toContain(field);
  });

  it('charges invalid batches too, refuses an over-long one unread, and caps the listed errors', async () => {
    // 13: the flood below counts four reads (63 KB, one per started 16 KiB), then ten are left.
    const limited = await startApi({ READ_RATE_LIMIT: '13/60' });
    try {
      const post = async (text: string) => {
        const response = await fetch(`${limited.baseUrl}/api/v1/batch`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
        });
        const raw = await response.text();
        return {
          status: response.status,
          remaining: response.headers.get('ratelimit-remaining'),
          size: raw.length,
          body: JSON.parse(raw) as Record<string, unknown>,
        };
      };
      // 21,000 empty operations in 63 KB: refused by the length alone, with one problem listed.
      const flood = await post(JSON.stringify({ operations: Array.from({ length: 21_000 }, () => ({})) }));
      expect(flood).toMatchObject({
        status: 400,
        remaining: '9',
        body: {
          code: 'validation_failed',
          errors: [{ field: 'operations', problem: 'must hold at most 25 operations' }],
        },
      });
      expect(flood.size).toBeLessThan(1024);

      // 25 operations with two problems each: 20 are listed, the other 30 counted.
      const broken = await post(
        JSON.stringify({ operations: Array.from({ length: 25 }, () => ({ op: 'nope', id: '' })) }),
      );
      expect(broken).toMatchObject({
        status: 400,
        remaining: '8',
        body: { code: 'validation_failed', moreErrors: 30 },
      });
      expect(validationErrorSchema.parse(broken.body).errors).toHaveLength(20);

      // Nine operations need nine reads: the first is counted as the request, the other eight are refused together.
      const tooBig = await post(
        JSON.stringify({ operations: Array.from({ length: 9 }, () => ({ op: 'getProject', id: 'leakhound' })) }),
      );
      expect(tooBig).toMatchObject({ status: 429, remaining: '7', body: { code: 'rate_limited' } });

      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await post('{"operations": "not a list"}')).status);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 400, 429]);
    } finally {
      await limited.stop();
    }
  });
});
