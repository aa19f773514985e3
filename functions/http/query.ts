import { z } from 'zod';
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

/** How a parameter's refusal is worded where the generic sentence is not enough. */
export interface ParameterWords {
  /** Replaces the generic hint. */
  hint?: string;
  /** Replaces the whole refusal (a cursor that fails its schema is as invalid as a forged one). */
  refusal?: () => ApiError;
}

/**
 * Reads an operation's query with the zod schema its OpenAPI description is generated from,
 * so what is published is what is enforced. Integers arrive as text and are read as plain
 * decimal digits only (`1e2`, `0x10` and ` 5` are refused). The first parameter that breaks its
 * schema is refused with `invalid_parameter`, in words made from the schema's own limits.
 */
export function parseQuery<Shape extends z.ZodRawShape>(
  query: URLSearchParams,
  schema: z.ZodObject<Shape>,
  words: Partial<Record<keyof Shape & string, ParameterWords>> = {},
): z.output<z.ZodObject<Shape>> {
  const values = strictQuery(query, Object.keys(schema.shape));
  const input: Record<string, unknown> = {};
  for (const [name, value] of values) input[name] = fromText(baseOf(schema.shape[name]!), value);
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const name = String(parsed.error.issues[0]?.path[0]) as keyof Shape & string;
  const refusal = words[name]?.refusal;
  if (refusal !== undefined) throw refusal();
  throw invalidParameter(name, schema.shape[name]!, values.has(name), words[name]?.hint);
}

/** The schema under `.optional()` and `.default()`, whose checks say what a value must be. */
function baseOf(schema: z.ZodTypeAny): z.ZodTypeAny {
  if (schema instanceof z.ZodOptional) return baseOf(schema.unwrap());
  if (schema instanceof z.ZodDefault) return baseOf(schema.removeDefault());
  return schema;
}

function fromText(base: z.ZodTypeAny, value: string): unknown {
  return base instanceof z.ZodNumber && /^\d{1,6}$/.test(value) ? Number(value) : value;
}

function invalidParameter(name: string, schema: z.ZodTypeAny, given: boolean, hint: string | undefined): ApiError {
  const base = baseOf(schema);
  const refuse = (rule: string, fallbackHint: string) =>
    new ApiError('invalid_parameter', `Query parameter "${name}" ${rule}.`, { hint: hint ?? fallbackHint });
  if (!given) return refuse('is required', `Send ${name}.`);
  if (base instanceof z.ZodNumber) {
    const fallback = schema instanceof z.ZodDefault ? ` (default ${String(schema._def.defaultValue())})` : '';
    return refuse(
      `must be an integer from ${base.minValue} to ${base.maxValue}`,
      `Use ${name}=${base.minValue}..${base.maxValue}${fallback}.`,
    );
  }
  if (base instanceof z.ZodEnum) {
    return refuse(
      `must be one of: ${(base.options as string[]).join(', ')}`,
      `Leave ${name} out, or use one of those values.`,
    );
  }
  if (base instanceof z.ZodString) {
    const [min, max] = [base.minLength ?? 0, base.maxLength];
    return refuse(
      `must be ${min} to ${max} characters after trimming`,
      `Give ${name} a non-empty value of at most ${max} characters${schema.isOptional() ? ', or leave it out' : ''}.`,
    );
  }
  return refuse('is not valid', 'See the parameter in /openapi.json.');
}
