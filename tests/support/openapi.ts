/**
 * Checks live answers against the published OpenAPI description. The validator covers the
 * OpenAPI 3.0 schema subset functions/openapi/ generates (type, nullable, enum, properties,
 * required, additionalProperties, items, anyOf/oneOf/allOf, $ref, numeric and length bounds,
 * pattern, loose formats), so the tests need no schema library of their own.
 */

export interface Schema {
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
}

interface Header {
  $ref?: string;
  required?: boolean;
  schema?: Schema;
}

interface ResponseDoc {
  headers?: Record<string, Header>;
  content?: Record<string, { schema: Schema }>;
}

export interface OperationDoc {
  operationId: string;
  summary?: string;
  deprecated?: boolean;
  responses: Record<string, ResponseDoc>;
  [key: string]: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OperationDoc>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface ValidateOptions {
  /** Report properties a schema does not name, even where it leaves them open: catches drift. */
  closed?: boolean;
}

/** The object a local `#/components/...` reference points at. */
export function resolveRef<T>(doc: OpenApiDocument, value: T & { $ref?: string }): T {
  if (value.$ref === undefined) return value;
  const target = value.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
  if (target === undefined) throw new Error(`unresolved $ref ${value.$ref}`);
  return resolveRef(doc, target as T & { $ref?: string });
}

export function findOperation(
  doc: OpenApiDocument,
  operationId: string,
): { path: string; method: string; operation: OperationDoc } {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item))
      if (operation.operationId === operationId) return { path, method, operation };
  }
  throw new Error(`no operation ${operationId}`);
}

const FORMATS: Record<string, (value: string) => boolean> = {
  uuid: (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
  'date-time': (value) =>
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value)),
  uri: (value) => URL.canParse(value),
  email: (value) => /^[^\s@]+@[^\s@]+$/.test(value),
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Every way `value` breaks `schema`, each as `path: problem`; empty when it conforms. */
export function validateSchema(
  doc: OpenApiDocument,
  schemaOrRef: Schema,
  value: unknown,
  path = '$',
  options: ValidateOptions = {},
): string[] {
  const schema = resolveRef(doc, schemaOrRef);
  if (value === null) return schema.nullable === true ? [] : [`${path}: is null but not nullable`];
  const errors: string[] = [];
  const actual = typeOf(value);
  if (schema.type !== undefined && actual !== schema.type && !(schema.type === 'number' && actual === 'integer')) {
    return [`${path}: is ${actual}, expected ${schema.type}`];
  }
  if (schema.enum !== undefined && !schema.enum.includes(value))
    errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum)
      errors.push(`${path}: ${value} < minimum ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum)
      errors.push(`${path}: ${value} > maximum ${schema.maximum}`);
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength)
      errors.push(`${path}: shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      errors.push(`${path}: longer than ${schema.maxLength}`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value))
      errors.push(`${path}: does not match ${schema.pattern}`);
    const format = schema.format === undefined ? undefined : FORMATS[schema.format];
    if (format !== undefined && !format(value)) errors.push(`${path}: is not a valid ${schema.format}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      errors.push(`${path}: fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      errors.push(`${path}: more than ${schema.maxItems} items`);
    if (schema.items !== undefined)
      value.forEach((item, i) => errors.push(...validateSchema(doc, schema.items!, item, `${path}[${i}]`, options)));
  }
  if (actual === 'object') errors.push(...validateObject(doc, schema, value as Record<string, unknown>, path, options));
  for (const part of schema.allOf ?? [])
    errors.push(...validateSchema(doc, part, value, path, { ...options, closed: false }));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) {
    const outcomes = alternatives.map((alternative) => validateSchema(doc, alternative, value, path, options));
    const matches = outcomes.filter((outcome) => outcome.length === 0).length;
    if (matches === 0)
      errors.push(
        `${path}: matches none of ${alternatives.length} alternatives (${outcomes.map((o) => o[0]).join(' | ')})`,
      );
    if (schema.oneOf !== undefined && matches > 1) errors.push(`${path}: matches ${matches} oneOf alternatives`);
  }
  return errors;
}

function validateObject(
  doc: OpenApiDocument,
  schema: Schema,
  value: Record<string, unknown>,
  path: string,
  options: ValidateOptions,
): string[] {
  const errors: string[] = [];
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? []) if (!(name in value)) errors.push(`${path}.${name}: is required`);
  // A schema that composes alternatives describes its members there, not in `properties`.
  const composed = schema.anyOf !== undefined || schema.oneOf !== undefined || schema.allOf !== undefined;
  // A schema without a type or properties (`{nullable: true}`) allows any value, objects included.
  const describesObject = schema.type === 'object' || schema.properties !== undefined;
  const closed =
    schema.additionalProperties === false ||
    (options.closed === true && describesObject && !composed && schema.additionalProperties === undefined);
  for (const [name, member] of Object.entries(value)) {
    const propertySchema = properties[name];
    if (propertySchema !== undefined)
      errors.push(...validateSchema(doc, propertySchema, member, `${path}.${name}`, options));
    else if (typeof schema.additionalProperties === 'object')
      errors.push(...validateSchema(doc, schema.additionalProperties, member, `${path}.${name}`, options));
    else if (closed) errors.push(`${path}.${name}: is not a documented property`);
  }
  return errors;
}

/** The documented response of an operation for a status, or undefined when the status is not documented. */
export function documentedResponse(doc: OpenApiDocument, operationId: string, status: number): ResponseDoc | undefined {
  const response = findOperation(doc, operationId).operation.responses[String(status)];
  return response === undefined ? undefined : resolveRef(doc, response);
}

/**
 * Checks one answer of an operation: its status is documented, its media type and body match
 * the documented content, and its headers match the documented headers (required ones present,
 * values of the documented type). Returns every problem found.
 */
export function validateResponse(
  doc: OpenApiDocument,
  operationId: string,
  answer: { status: number; contentType: string | null; body: unknown; headers?: Headers },
  options: ValidateOptions = { closed: true },
): string[] {
  const response = documentedResponse(doc, operationId, answer.status);
  if (response === undefined) return [`${operationId}: status ${answer.status} is not documented`];
  const errors: string[] = [];
  if (response.content === undefined) {
    if (answer.body !== undefined) errors.push(`${operationId} ${answer.status}: has a body but none is documented`);
  } else {
    const mediaType = (answer.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const media = response.content[mediaType];
    if (media === undefined)
      errors.push(`${operationId} ${answer.status}: media type "${mediaType}" is not documented`);
    else
      errors.push(...validateSchema(doc, media.schema, answer.body, `${operationId} ${answer.status} body`, options));
  }
  if (answer.headers !== undefined)
    errors.push(...validateHeaders(doc, response, answer.headers, `${operationId} ${answer.status}`));
  return errors;
}

function validateHeaders(doc: OpenApiDocument, response: ResponseDoc, headers: Headers, where: string): string[] {
  const errors: string[] = [];
  for (const [name, headerOrRef] of Object.entries(response.headers ?? {})) {
    const header = resolveRef(doc, headerOrRef);
    const value = headers.get(name);
    if (value === null) {
      if (header.required === true) errors.push(`${where}: required header ${name} is missing`);
      continue;
    }
    const schema = header.schema === undefined ? undefined : resolveRef(doc, header.schema);
    const typed = schema?.type === 'integer' ? (/^\d+$/.test(value) ? Number(value) : value) : value;
    if (schema !== undefined) errors.push(...validateSchema(doc, schema, typed, `${where} header ${name}`));
  }
  return errors;
}

/** Reads a fetch answer and checks it against the document; returns the parsed body and the problems. */
export async function checkFetchResponse(
  doc: OpenApiDocument,
  operationId: string,
  response: Response,
): Promise<{ status: number; body: unknown; errors: string[] }> {
  const text = await response.text();
  const contentType = response.headers.get('content-type');
  const body = text === '' ? undefined : /json/.test(contentType ?? '') ? (JSON.parse(text) as unknown) : text;
  const errors = validateResponse(doc, operationId, {
    status: response.status,
    contentType,
    body,
    headers: response.headers,
  });
  return { status: response.status, body, errors };
}
