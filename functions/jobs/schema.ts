import { z } from 'zod';
import { unionOf } from '../http/union-of.ts';
import { JOB_ERROR_CODES, type JobErrorCode, type JobStatus, type JobView } from './job-store.ts';
import { DEFAULT_TASK, TASK_NAMES, TASKS } from './tasks.ts';

// The request and answers of createJob and getJobStatus, as published and as enforced. A task's
// input is checked by the task's own schema (tasks.ts); the request publishes them as a union.

/** Every job status with its meaning; a Record, so the compiler insists on each member of JobStatus. */
const STATUS_MEANINGS: Record<JobStatus, string> = {
  pending: 'waiting for a free slot',
  running: 'working, `progress` grows',
  succeeded: 'done, `result` holds the output',
  failed: 'stopped, `error` says why',
};
const JOB_STATUSES = Object.keys(STATUS_MEANINGS) as [JobStatus, ...JobStatus[]];

const JOB_ERROR_NAMES = Object.keys(JOB_ERROR_CODES) as [JobErrorCode, ...JobErrorCode[]];

export const jobRequestSchema = z
  .object({
    task: z.enum(TASK_NAMES).optional().describe(`The task to run; \`${DEFAULT_TASK}\` when absent.`),
    input: unionOf(TASK_NAMES.map((name) => TASKS[name].input))
      .optional()
      .describe("The task's input; absent means an empty object."),
  })
  .strict();

/** The jobId in getJobStatus's path; an unknown one is a 404, whatever its shape. */
export const jobIdParameter = z.string().min(1).describe('The jobId createJob returned.');

export const jobCreatedSchema = z.object({
  jobId: z.string(),
  status: z.enum(['pending', 'running'] as const satisfies readonly JobStatus[]),
  pollUrl: z.string().url().describe('Where to poll the job (getJobStatus); the same URL as the Location header.'),
});

export const jobSchema = z.object({
  jobId: z.string(),
  task: z.enum(TASK_NAMES),
  status: z
    .enum(JOB_STATUSES)
    .describe(JOB_STATUSES.map((status) => `\`${status}\`: ${STATUS_MEANINGS[status]}`).join('; ')),
  progress: z.number().min(0).max(1).describe('Fraction done, from 0 to 1.'),
  // Any task's result: the OpenAPI description names the alternatives (openapi/components.ts).
  result: z
    .object({})
    .passthrough()
    .nullable()
    .describe("The task's result once the job succeeded (the schema named after its task), else null."),
  error: z
    .object({ code: z.enum(JOB_ERROR_NAMES), message: z.string() })
    .nullable()
    .describe(
      `Why the job failed, else null. Codes:\n\n${JOB_ERROR_NAMES.map((code) => `- \`${code}\`: ${JOB_ERROR_CODES[code]}`).join('\n')}`,
    ),
  createdAt: z.string().datetime(),
  updatedAt: z.string().datetime(),
}) satisfies z.ZodType<JobView, unknown>;
