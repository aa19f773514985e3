import { expect } from 'vitest';
import { z } from 'zod';

/** Job requests and polling, shared by the api tier's job tests and the crash test on a real server. */

/** Enough quota for tight polling loops: quotas have their own tests. */
export const ENV = { READ_RATE_LIMIT: '100000/60', TEST_KEY_READ_RATE_LIMIT: '100000/60' };
const FINISHED = ['succeeded', 'failed'];

export const createdSchema = z
  .object({
    jobId: z.string().regex(/^job_[A-Za-z0-9_-]{22}$/),
    status: z.enum(['pending', 'running']),
    pollUrl: z.string().url(),
  })
  .strict();
const jobSchema = z
  .object({
    jobId: z.string(),
    task: z.string(),
    status: z.enum(['pending', 'running', 'succeeded', 'failed']),
    progress: z.number().min(0).max(1),
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z.object({ code: z.string(), message: z.string() }).strict().nullable(),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .strict();
export type Job = z.infer<typeof jobSchema>;

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** POSTs a job; `undefined` sends no body at all, `raw` sends the text as it is; `client` is an X-Forwarded-For address. */
export async function createJob(
  baseUrl: string,
  body?: unknown,
  options: { query?: string; raw?: string; client?: string } = {},
): Promise<Answer> {
  const text = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.client !== undefined) headers['x-forwarded-for'] = options.client;
  return answer(await fetch(`${baseUrl}/api/v1/jobs${options.query ?? ''}`, { method: 'POST', headers, body: text }));
}

export async function getJob(baseUrl: string, jobId: string, query = ''): Promise<Answer> {
  return answer(await fetch(`${baseUrl}/api/v1/jobs/${jobId}${query}`));
}

/** Polls until the job finishes; every view on the way is checked and handed to `seen`. */
export async function pollUntilFinished(
  baseUrl: string,
  jobId: string,
  query = '',
  seen: (job: Job) => void = () => {},
): Promise<Job> {
  // The deadline only catches a hang: a busy machine may take long, and that is no failure.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const polled = await getJob(baseUrl, jobId, query);
    expect(polled.status).toBe(200);
    const job = jobSchema.parse(polled.body);
    seen(job);
    if (FINISHED.includes(job.status)) return job;
    expect(polled.headers.get('retry-after')).toMatch(/^[12]$/);
    expect(polled.headers.get('cache-control')).toBe('no-store');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${jobId} did not finish`);
}

export async function created(baseUrl: string, body?: unknown, query = ''): Promise<z.infer<typeof createdSchema>> {
  const posted = await createJob(baseUrl, body, { query });
  expect(posted.status, JSON.stringify(posted.body)).toBe(202);
  return createdSchema.parse(posted.body);
}
