import type { z } from 'zod';
import { ApiError } from '../http/api-error.ts';
import { fieldProblems, PLAIN_WORDS } from '../config/field-problems.ts';
import { jobRequestSchema } from './schema.ts';
import { DEFAULT_TASK, TASK_NAMES, TASKS, type TaskName } from './tasks.ts';

/** Task names are echoed in errors only when they look like one, so odd input never comes back. */
const ECHOABLE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A createJob request once checked: the task to run and its parsed input. */
export interface JobRequest {
  task: TaskName;
  input: unknown;
}

/**
 * Checks a createJob body (undefined when there is none) with the published JobRequest schema,
 * then the input with the named task's own schema, which the published union is made of: a
 * union would only say that no task accepts the input, not what is wrong with it for this one.
 */
export function parseJobRequest(body: unknown): JobRequest {
  const raw = body === undefined ? {} : body;
  const parsed = jobRequestSchema.safeParse(raw, PLAIN_WORDS);
  const issues = parsed.success ? [] : parsed.error.issues.filter((issue) => issue.path[0] !== 'input');
  if (issues.length > 0) throw requestError(issues, raw);
  // Only the input can be wrong by now, so the task is absent or one of TASK_NAMES.
  const task = (raw as { task?: TaskName }).task ?? DEFAULT_TASK;
  const input = TASKS[task].input.safeParse((raw as { input?: unknown }).input, PLAIN_WORDS);
  if (!input.success) throw invalidInput(task, input.error);
  return { task, input: input.data };
}

/** The first thing wrong with the request itself, in the order a reader fixes them: the body, its fields, the task. */
function requestError(issues: readonly z.ZodIssue[], body: unknown): ApiError {
  if (issues.some((issue) => issue.path.length === 0 && issue.code !== 'unrecognized_keys')) {
    return new ApiError('validation_failed', 'The body must be a JSON object.', {
      hint: 'Send {"task": "export"}, optionally with "input", or no body for the default task.',
      errors: [{ field: 'body', problem: 'must be a JSON object with optional task and input' }],
    });
  }
  const unknown = issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys : []));
  if (unknown.length > 0) {
    return new ApiError(
      'validation_failed',
      `The body has ${unknown.length} unknown field${unknown.length > 1 ? 's' : ''}.`,
      {
        hint: `A job request takes only: ${Object.keys(jobRequestSchema.shape).join(', ')}.`,
        errors: unknown.map((key) => ({ field: key.slice(0, 64), problem: 'is not a field of this operation' })),
      },
    );
  }
  const task = (body as { task?: unknown }).task;
  if (typeof task !== 'string') {
    return new ApiError('validation_failed', 'The job request has 1 problem.', {
      hint: `Name the task as a string, one of: ${TASK_NAMES.join(', ')}.`,
      errors: [{ field: 'task', problem: 'must be a string' }],
    });
  }
  return new ApiError(
    'unknown_task',
    ECHOABLE_NAME.test(task) ? `There is no task named "${task}".` : 'There is no task with this name.',
    {
      hint: `Tasks: ${TASK_NAMES.map((name) => (name === DEFAULT_TASK ? `${name} (the default)` : name)).join(', ')}.`,
    },
  );
}

/** A 400 `validation_failed` listing every problem of a task's input, with fields as `input.<path>`. */
function invalidInput(task: TaskName, error: z.ZodError): ApiError {
  const errors = fieldProblems(error, {
    prefix: 'input',
    unknownField: 'is not a field of this task',
    notAnObject: 'must be an object',
  });
  return new ApiError(
    'validation_failed',
    `The input of the ${task} task has ${errors.length} problem${errors.length > 1 ? 's' : ''}.`,
    {
      hint: 'Fix each field listed in errors; the task descriptions in /openapi.json give each input.',
      errors,
    },
  );
}
