import type { z } from 'zod';
import { ApiError } from '../http/api-error.ts';
import { fieldProblems } from '../http/field-problems.ts';
import { DEFAULT_TASK, isTaskName, TASK_NAMES, type TaskName } from './tasks.ts';

/** Task names are echoed in errors only when they look like one, so odd input never comes back. */
const ECHOABLE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The task a createJob request names: absent means the default; anything else must be a known name. */
export function taskNameOf(task: unknown): TaskName {
  if (task === undefined) return DEFAULT_TASK;
  if (typeof task !== 'string') {
    throw new ApiError('validation_failed', 'The job request has 1 problem.', {
      hint: `Name the task as a string, one of: ${TASK_NAMES.join(', ')}.`,
      errors: [{ field: 'task', problem: 'must be a string' }],
    });
  }
  if (!isTaskName(task)) {
    throw new ApiError('unknown_task', ECHOABLE_NAME.test(task) ? `There is no task named "${task}".` : 'There is no task with this name.', {
      hint: `Tasks: ${TASK_NAMES.map((name) => (name === DEFAULT_TASK ? `${name} (the default)` : name)).join(', ')}.`,
    });
  }
  return task;
}

/** A 400 `validation_failed` listing every problem of a task's input, with fields as `input.<path>`. */
export function invalidInput(task: TaskName, error: z.ZodError): ApiError {
  const errors = fieldProblems(error, { prefix: 'input', unknownField: 'is not a field of this task', notAnObject: 'must be an object' });
  return new ApiError('validation_failed', `The input of the ${task} task has ${errors.length} problem${errors.length > 1 ? 's' : ''}.`, {
    hint: 'Fix each field listed in errors; the task descriptions in /openapi.json give each input.',
    errors,
  });
}
