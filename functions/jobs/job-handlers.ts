import { ApiError } from '../http/api-error.ts';
import { readOptionalJson } from '../http/json-body.ts';
import { strictQuery } from '../http/query.ts';
import type { ApiRequest, ApiResponse, HeaderMap } from '../http/types.ts';
import type { JobOwner, JobService } from './job-service.ts';
import type { JobView } from './job-store.ts';

/** Largest createJob body: a task name and a small input. */
const BODY_MAX_BYTES = 16 * 1024;
const BODY_FIELDS: readonly string[] = ['task', 'input'];
/** Ids are echoed in errors only when they have the shape we issue, so odd input never comes back. */
const JOB_ID_PATTERN = /^job_[A-Za-z0-9_-]{1,64}$/;
const JSON_TYPE = 'application/json; charset=utf-8';

/** The mode a request runs in and the client it counts for, as the router resolved them. */
export type JobRequestContext = JobOwner;

/** POST /api/v1/jobs (createJob): accepts a job and answers 202 with where to poll it. */
export function createJobHandler(jobs: JobService, siteUrl: string) {
  return async (request: ApiRequest, context: JobRequestContext): Promise<ApiResponse> => {
    strictQuery(request.query, []);
    const body = jobRequestBody(await readOptionalJson(request, BODY_MAX_BYTES));
    const job = jobs.create(body.task, body.input, context);
    const pollUrl = `${siteUrl}/api/v1/jobs/${job.jobId}`;
    return {
      status: 202,
      headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', location: pollUrl, 'retry-after': '1' },
      body: JSON.stringify({ jobId: job.jobId, status: job.status, pollUrl }),
    };
  };
}

/** GET /api/v1/jobs/{jobId} (getJobStatus): the job's state, progress and, once it succeeded, its result. */
export function getJobStatusHandler(jobs: JobService) {
  return (request: ApiRequest, jobId: string, context: JobRequestContext): ApiResponse => {
    strictQuery(request.query, []);
    const wellFormed = JOB_ID_PATTERN.test(jobId);
    const job = wellFormed ? jobs.get(jobId, context.sandbox) : undefined;
    if (job === undefined) {
      throw new ApiError('job_not_found', wellFormed ? `No job has the id "${jobId}".` : 'No job has this id.', {
        hint: "Job ids come from createJob; a job is kept for a limited time, a client's older finished jobs make way for its newer ones, and sandbox and production jobs are separate.",
      });
    }
    return { status: 200, headers: { 'content-type': JSON_TYPE, ...statusCaching(job) }, body: JSON.stringify(job) };
  };
}

/** The createJob body: absent means the default task; otherwise an object with only task and input. */
function jobRequestBody(body: unknown): { task?: unknown; input?: unknown } {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('validation_failed', 'The body must be a JSON object.', {
      hint: 'Send {"task": "export"}, optionally with "input", or no body for the default task.',
      errors: [{ field: 'body', problem: 'must be a JSON object with optional task and input' }],
    });
  }
  const unknown = Object.keys(body).filter((key) => !BODY_FIELDS.includes(key));
  if (unknown.length > 0) {
    throw new ApiError('validation_failed', `The body has ${unknown.length} unknown field${unknown.length > 1 ? 's' : ''}.`, {
      hint: `A job request takes only: ${BODY_FIELDS.join(', ')}.`,
      errors: unknown.map((key) => ({ field: key.slice(0, 64), problem: 'is not a field of this operation' })),
    });
  }
  return body;
}

/**
 * An unfinished job changes under the client, so it is never cached and Retry-After paces the
 * polling (sooner once it runs); a finished job no longer changes and may be reused briefly.
 */
function statusCaching(job: JobView): HeaderMap {
  if (job.status === 'pending') return { 'cache-control': 'no-store', 'retry-after': '2' };
  if (job.status === 'running') return { 'cache-control': 'no-store', 'retry-after': '1' };
  return { 'cache-control': 'private, max-age=60' };
}
