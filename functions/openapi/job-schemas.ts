import type { JobStatus, JobView } from '../jobs/job-store.ts';
import { JOB_ERROR_CODES, type JobErrorCode } from '../jobs/job-store.ts';
import { DEFAULT_TASK, TASK_NAMES, TASKS, type TaskName } from '../jobs/tasks.ts';
import { unionOf, z } from './zod.ts';

/** Every job status with its meaning; a Record, so the compiler insists on each member of JobStatus. */
const STATUS_MEANINGS: Record<JobStatus, string> = {
  pending: 'waiting for a free slot',
  running: 'working, `progress` grows',
  succeeded: 'done, `result` holds the output',
  failed: 'stopped, `error` says why',
};
const JOB_STATUSES = Object.keys(STATUS_MEANINGS) as [JobStatus, ...JobStatus[]];

const JOB_ERROR_NAMES = Object.keys(JOB_ERROR_CODES) as [JobErrorCode, ...JobErrorCode[]];

function componentName(task: TaskName, part: 'Input' | 'Result'): string {
  return `${task.charAt(0).toUpperCase()}${task.slice(1)}Task${part}`;
}

/** The input and result schemas of every task, published as components named after the task. */
const taskInputs = TASK_NAMES.map((name) =>
  TASKS[name].input.openapi(componentName(name, 'Input'), { description: `Input of the \`${name}\` task.` }),
);

/** Registered by document.ts: the Job schema points at them by name (see `result` below). */
export const TASK_RESULTS = TASK_NAMES.map((name) => ({
  name: componentName(name, 'Result'),
  schema: TASKS[name].result.openapi({ description: `Result of the \`${name}\` task: ${TASKS[name].description}` }),
}));

const TASK_LIST = TASK_NAMES.map(
  (name) => `- \`${name}\`${name === DEFAULT_TASK ? ' (the default)' : ''}: ${TASKS[name].description} Input: ${componentName(name, 'Input')}; result: ${componentName(name, 'Result')}.`,
).join('\n');

export const jobRequestSchema = z
  .object({
    task: z.enum(TASK_NAMES).optional().openapi({ description: `The task to run; \`${DEFAULT_TASK}\` when absent.` }),
    input: unionOf(taskInputs).optional().openapi({ description: "The task's input; absent means an empty object." }),
  })
  .strict()
  .openapi('JobRequest', { description: `The body is optional: no body runs the default task. Tasks:\n\n${TASK_LIST}` });

export const jobCreatedSchema = z
  .object({
    jobId: z.string(),
    status: z.enum(['pending', 'running'] as const satisfies readonly JobStatus[]),
    pollUrl: z.string().url().openapi({ description: 'Where to poll the job (getJobStatus); the same URL as the Location header.' }),
  })
  .openapi('JobCreated');

export const jobSchema = z
  .object({
    jobId: z.string(),
    task: z.enum(TASK_NAMES),
    status: z.enum(JOB_STATUSES).openapi({ description: JOB_STATUSES.map((status) => `\`${status}\`: ${STATUS_MEANINGS[status]}`).join('; ') }),
    progress: z.number().min(0).max(1).openapi({ description: 'Fraction done, from 0 to 1.' }),
    // A nullable union cannot be generated as valid OpenAPI 3.0 (the generator would add a
    // type-less `{nullable: true}` member), so the alternatives are listed by reference beside
    // `type: object` and `nullable: true`.
    result: z
      .object({})
      .passthrough()
      .nullable()
      .openapi({
        anyOf: TASK_RESULTS.map(({ name }) => ({ $ref: `#/components/schemas/${name}` })),
        description: "The task's result once the job succeeded (the schema named after its task), else null.",
      }),
    error: z
      .object({ code: z.enum(JOB_ERROR_NAMES), message: z.string() })
      .nullable()
      .openapi({ description: `Why the job failed, else null. Codes:\n\n${JOB_ERROR_NAMES.map((code) => `- \`${code}\`: ${JOB_ERROR_CODES[code]}`).join('\n')}` }),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi('Job', { description: 'A job as getJobStatus returns it.' }) satisfies z.ZodType<JobView, z.ZodTypeDef, unknown>;
