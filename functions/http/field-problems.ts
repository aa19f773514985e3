import type { ZodError } from 'zod';
import type { FieldProblem } from './api-error.ts';

/** How a body's problems are worded where they differ between operations. */
export interface ProblemWords {
  /** For a field the schema does not have, e.g. "is not a field of this operation". */
  unknownField: string;
  /** For a body that is not the JSON object expected, e.g. "must be a JSON object". */
  notAnObject: string;
  /** Where the checked value sits in the body (`input` for a job's input); fields are named from here. */
  prefix?: string;
}

/**
 * Every problem zod found in a body, one `{field, problem}` per problem and per unknown field,
 * with fields written as paths (`operations[1].op`, `input.limit`). Type errors say what is
 * expected in words ("is required", "must be a string") rather than zod's own sentence.
 */
export function fieldProblems(error: ZodError, words: ProblemWords): FieldProblem[] {
  const root = words.prefix === undefined ? [] : [words.prefix];
  const problems: FieldProblem[] = [];
  for (const issue of error.issues) {
    const path = [...root, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        problems.push({ field: fieldName([...path, key.slice(0, 64)]), problem: words.unknownField });
    } else if (path.length === 0) {
      problems.push({ field: 'body', problem: words.notAnObject });
    } else if (issue.code === 'invalid_type') {
      problems.push({
        field: fieldName(path),
        problem: issue.received === 'undefined' ? 'is required' : `must be ${article(issue.expected)}`,
      });
    } else {
      problems.push({ field: fieldName(path), problem: issue.message });
    }
  }
  return problems;
}

/** `['operations', 1, 'op']` -> `operations[1].op`. */
function fieldName(path: readonly (string | number)[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${part}`)).join('');
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
