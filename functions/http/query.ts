import { z } from 'zod';
import { ApiError } from './api-error.ts';

/** Query parameters every operation accepts (read by the router, see request-context.ts). */
const COMMON_PARAMETERS: ReadonlySet<string> = new Set(['sandbox']);

/**
 * Most query parameters one API request may carry, `sandbox` included. No operation takes more
 * than a handful; the bound keeps a request line full of names from costing more than it is charged.
 */
export const MAX_QUERY_PARAMETERS = 50;

/** Most names an unknown-name refusal lists; the rest are counted. */
export const MAX_LISTED_NAMES = 5;

/** Refuses a query with more than MAX_QUERY_PARAMETERS parameters (400 `too_many_parameters`). */
function checkQuerySize(query: URLSearchParams): void {
  if (query.size <= MAX_QUERY_PARAMETERS) return;
  throw new ApiError(
    'too_many_parameters',
    `The request has ${query.size} query parameters; at most ${MAX_QUERY_PARAMETERS} are allowed.`,
    { hint: 'Send only the parameters the operation takes (see /openapi.json).' },
  );
}

/**
 * Names as a refusal quotes them: each cut to 64 characters, at most MAX_LISTED_NAMES of them,
 * then how many more there are (`"a", "b" and 7 more`).
 */
export function listedNames(names: readonly string[]): string {
  const listed = names
    .slice(0, MAX_LISTED_NAMES)
    .map((name) => JSON.stringify(name.slice(0, 64)))
    .join(', ');
  const more = names.length - MAX_LISTED_NAMES;
  return more > 0 ? `${listed} and ${more} more` : listed;
}

/** What an empty query reads as: nothing (shared, so a read without a query allocates nothing here). */
const NO_VALUES: ReadonlyMap<string, string> = new Map();
const NO_NAMES: ReadonlySet<string> = new Set();

/** Each operation's list of names as a set, made once: the lists are module constants (schema keys). */
const knownSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function knownSet(allowed: readonly string[]): ReadonlySet<string> {
  if (allowed.length === 0) return NO_NAMES;
  let known = knownSets.get(allowed);
  if (known === undefined) {
    known = new Set(allowed);
    knownSets.set(allowed, known);
  }
  return known;
}

/**
 * Checks the query string against the parameters an operation takes: an unknown name is a
 * 400 `unknown_parameter` naming it, and a repeated one a 400 `invalid_parameter`.
 * Returns each parameter's single value. Linear in the number of parameters.
 */
export function strictQuery(query: URLSearchParams, allowed: readonly string[]): ReadonlyMap<string, string> {
  // Most reads carry no query at all.
  if (query.size === 0) return NO_VALUES;
  checkQuerySize(query);
  const known = knownSet(allowed);
  const values = new Map<string, string>();
  let unknown: Set<string> | undefined;
  for (const [name, value] of query) {
    if (COMMON_PARAMETERS.has(name)) continue;
    if (!known.has(name)) {
      (unknown ??= new Set()).add(name);
      continue;
    }
    if (values.has(name)) {
      throw new ApiError('invalid_parameter', `Query parameter "${name}" is given more than once.`, {
        hint: `Send "${name}" at most once.`,
      });
    }
    values.set(name, value);
  }
  if (unknown !== undefined) {
    throw new ApiError(
      'unknown_parameter',
      `Unknown query parameter${unknown.size > 1 ? 's' : ''}: ${listedNames([...unknown])}.`,
      { hint: `This operation takes: ${[...allowed, ...COMMON_PARAMETERS].join(', ')}.` },
    );
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

/** Each schema's parameter names, listed once. */
const schemaNames = new WeakMap<z.ZodTypeAny, readonly string[]>();

function namesOf(schema: z.ZodObject<z.ZodRawShape>): readonly string[] {
  let names = schemaNames.get(schema);
  if (names === undefined) {
    names = Object.keys(schema.shape);
    schemaNames.set(schema, names);
  }
  return names;
}

/** Each schema's reading of an empty query (its defaults), once it parsed. */
const emptyQueries = new WeakMap<z.ZodTypeAny, object>();

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
  if (query.size === 0) {
    // Most reads carry no query: what the schema makes of nothing is worked out once.
    const defaults = emptyQueries.get(schema) as z.output<z.ZodObject<Shape>> | undefined;
    if (defaults !== undefined) return { ...defaults };
  }
  const values = strictQuery(query, namesOf(schema));
  const input: Record<string, unknown> = {};
  for (const [name, value] of values) input[name] = fromText(baseOf(schema.shape[name] as z.ZodType), value);
  const parsed = schema.safeParse(input);
  if (parsed.success) {
    if (query.size === 0) emptyQueries.set(schema, { ...parsed.data });
    return parsed.data;
  }
  const name = String(parsed.error.issues[0]?.path[0]) as keyof Shape & string;
  const refusal = words[name]?.refusal;
  if (refusal !== undefined) throw refusal();
  throw invalidParameter(name, schema.shape[name] as z.ZodType, values.has(name), words[name]?.hint);
}

/** The schema under `.optional()` and `.default()`, whose checks say what a value must be. */
function baseOf(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional) return baseOf(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodDefault) return baseOf(schema.unwrap() as z.ZodType);
  return schema;
}

function fromText(base: z.ZodType, value: string): unknown {
  return base instanceof z.ZodNumber && /^\d{1,6}$/.test(value) ? Number(value) : value;
}

function invalidParameter(name: string, schema: z.ZodType, given: boolean, hint: string | undefined): ApiError {
  const base = baseOf(schema);
  const refuse = (rule: string, fallbackHint: string) =>
    new ApiError('invalid_parameter', `Query parameter "${name}" ${rule}.`, { hint: hint ?? fallbackHint });
  if (!given) return refuse('is required', `Send ${name}.`);
  if (base instanceof z.ZodNumber) {
    const fallback = schema instanceof z.ZodDefault ? ` (default ${String(schema._def.defaultValue)})` : '';
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
