import { serviceUrl, type PublicOrigins } from '../config/public-urls.ts';
import { ApiError } from '../http/api-error.ts';
import { jsonResponse } from '../http/json.ts';
import { readOptionalJson } from '../http/json-body.ts';
import { strictQuery } from '../http/query.ts';
import type { RouteHandler } from '../http/router.ts';
import type { HeaderMap } from '../http/types.ts';
import { parseJobRequest } from './job-request.ts';
import type { JobService } from './job-service.ts';
import type { JobView } from './job-store.ts';

/** Largest createJob body: a task name and a small input. */
const BODY_MAX_BYTES = 16 * 1024;
/** Ids are echoed in errors only when they have the shape we issue, so odd input never comes back. */
const JOB_ID_PATTERN = /^job_[A-Za-z0-9_-]{1,64}$/;

/** POST /api/v1/jobs (createJob): accepts a job and answers 202 with where to poll it. */
export function createJobHandler(jobs: JobService, origins: PublicOrigins): RouteHandler {
  return async (request, _params, context) => {
    strictQuery(request.query, []);
    const { task, input } = parseJobRequest(await readOptionalJson(request, BODY_MAX_BYTES));
    const job = await jobs.create(task, input, context);
    const pollUrl = serviceUrl(origins, `/api/v1/jobs/${job.jobId}`);
    return jsonResponse(
      202,
      { jobId: job.jobId, status: job.status, pollUrl },
      { location: pollUrl, 'retry-after': '1' },
    );
  };
}

/** GET /api/v1/jobs/{jobId} (getJobStatus): the job's state, progress and, once it succeeded, its result. */
export function getJobStatusHandler(jobs: JobService): RouteHandler {
  return async (request, { jobId = '' }, context) => {
    strictQuery(request.query, []);
    const wellFormed = JOB_ID_PATTERN.test(jobId);
    const job = wellFormed ? await jobs.get(jobId, context.sandbox) : undefined;
    if (job === undefined) {
      throw new ApiError('job_not_found', wellFormed ? `No job has the id "${jobId}".` : 'No job has this id.', {
        hint: "Job ids come from createJob; a job is kept for a limited time, a client's older finished jobs make way for its newer ones, and sandbox and production jobs are separate.",
      });
    }
    return jsonResponse(200, job, statusCaching(job));
  };
}

/**
 * An unfinished job changes under the client, so it is never cached and Retry-After paces the
 * polling (sooner once it runs); a finished job no longer changes and may be reused briefly.
 */
function statusCaching(job: JobView): HeaderMap {
  if (job.status === 'pending') return { 'retry-after': '2' };
  if (job.status === 'running') return { 'retry-after': '1' };
  return { 'cache-control': 'private, max-age=60' };
}
