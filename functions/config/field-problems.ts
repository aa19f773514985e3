import type { z, ZodError } from 'zod';

/** One problem with one field of a request body or a content file. */
export interface FieldProblem {
  field: string;
  problem: string;
}

/** How a body's problems are worded where they differ between operations. */
export interface ProblemWords {
  /** For a field the schema does not have, e.g. "is not a field of this operation". */
  unknownField: string;
  /** For a body that is not the JSON object expected, e.g. "must be a JSON object". */
  notAnObject: string;
  /** Where the checked value sits in the body (`input` for a job's input); fields are named from here. */
  prefix?: string;
}

/** zod's names for what a value should have been, where they are not plain English. */
const TYPE_WORDS: Record<string, string> = { int: 'integer' };

/** `1 character`, `3 items`. */
function counted(count: number | bigint, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** A length or size bound in the words the API's own rules use ("must be at most 100 characters"). */
function boundWords(
  origin: string,
  side: 'least' | 'most',
  limit: number | bigint,
  inclusive: boolean,
): string | undefined {
  if (origin === 'string') return `must be at ${side} ${counted(limit, 'character')}`;
  if (origin === 'array') return `must hold at ${side} ${counted(limit, 'item')}`;
  if (origin !== 'number' && origin !== 'int') return undefined;
  if (inclusive) return `must be at ${side} ${limit}`;
  return `must be ${side === 'least' ? 'greater' : 'less'} than ${limit}`;
}

/**
 * Parse options that word problems as this API always has: "is required" for a missing field,
 * "must be a string" (or a number, an integer...) for one of the wrong type, "must be at most 100
 * characters" for a bound, instead of zod's own sentences. Checks with a message of their own keep
 * it. Pass them to every body's `safeParse`.
 */
export const PLAIN_WORDS: z.core.ParseContext<z.core.$ZodIssue> = {
  error: (issue) => {
    if (issue.code === 'too_small') return boundWords(issue.origin, 'least', issue.minimum, issue.inclusive ?? true);
    if (issue.code === 'too_big') return boundWords(issue.origin, 'most', issue.maximum, issue.inclusive ?? true);
    if (issue.code !== 'invalid_type') return undefined;
    if (issue.input === undefined) return 'is required';
    const type = TYPE_WORDS[issue.expected] ?? issue.expected;
    return `must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
  },
};

/**
 * Every problem zod found in a body (parsed with PLAIN_WORDS), one `{field, problem}` per problem
 * and per unknown field, with fields written as paths (`operations[1].op`, `input.limit`).
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
    } else {
      problems.push({ field: fieldName(path), problem: issue.message });
    }
  }
  return problems;
}

/** `['operations', 1, 'op']` -> `operations[1].op`. */
function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}
