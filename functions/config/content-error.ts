import type { ZodError } from 'zod';
import { fieldProblems } from './field-problems.ts';

/** One thing wrong in one content file: the field (a path such as `links[0].url`) and the rule it breaks. */
export interface ContentProblem {
  field: string;
  problem: string;
}

/**
 * A content file the build cannot use, with every problem found in it. The message names the file
 * (relative to the repository) and each field with its rule, so the owner needs no stack trace.
 */
export class ContentError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly ContentProblem[],
  ) {
    super(`${file} is not valid:\n${problems.map(({ field, problem }) => `  - ${field}: ${problem}`).join('\n')}`);
    this.name = 'ContentError';
  }
}

/** A zod error on a content file, worded as the API words a bad body. */
export function contentProblems(error: ZodError, notAnObject: string): ContentProblem[] {
  return fieldProblems(error, { unknownField: 'is not a known field (check its spelling)', notAnObject });
}
