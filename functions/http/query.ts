import { ApiError } from './api-error.ts';

/** Query parameters every operation accepts (read by the router, see request-context.ts). */
const COMMON_PARAMETERS: readonly string[] = ['sandbox'];

/**
 * Checks the query string against the parameters an operation takes: an unknown name is a
 * 400 `unknown_parameter` naming it, and a repeated one a 400 `invalid_parameter`.
 * Returns each parameter's single value.
 */
export function strictQuery(query: URLSearchParams, allowed: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  const unknown: string[] = [];
  for (const [name, value] of query) {
    if (COMMON_PARAMETERS.includes(name)) continue;
    if (!allowed.includes(name)) {
      if (!unknown.includes(name)) unknown.push(name);
      continue;
    }
    if (values.has(name)) {
      throw new ApiError('invalid_parameter', `Query parameter "${name}" is given more than once.`, {
        hint: `Send "${name}" at most once.`,
      });
    }
    values.set(name, value);
  }
  if (unknown.length > 0) {
    const names = unknown.map((name) => JSON.stringify(name.slice(0, 64))).join(', ');
    throw new ApiError('unknown_parameter', `Unknown query parameter${unknown.length > 1 ? 's' : ''}: ${names}.`, {
      hint: `This operation takes: ${[...allowed, ...COMMON_PARAMETERS].join(', ')}.`,
    });
  }
  return values;
}

/** An integer parameter within [min, max]; absent means `fallback`. Anything else is a 400 naming the range. */
export function integerParameter(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d{1,6}$/.test(value) || parsed < min || parsed > max) {
    throw new ApiError('invalid_parameter', `Query parameter "${name}" must be an integer from ${min} to ${max}.`, {
      hint: `Use ${name}=${min}..${max} (default ${fallback}).`,
    });
  }
  return parsed;
}

/** A short text parameter (1..maxLength characters after trimming); absent means undefined. */
export function textParameter(value: string | undefined, name: string, maxLength: number): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > maxLength) {
    throw new ApiError('invalid_parameter', `Query parameter "${name}" must be 1 to ${maxLength} characters.`, {
      hint: `Give ${name} a non-empty value of at most ${maxLength} characters, or leave it out.`,
    });
  }
  return trimmed;
}
