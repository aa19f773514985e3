import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config/env.ts';
import { ERROR_CODES } from '../../functions/http/error-codes.ts';
import { TASK_NAMES } from '../../functions/jobs/tasks.ts';
import { OAUTH_SCOPES } from '../../functions/keys/schema.ts';
import {
  COMMON_ERRORS,
  OPERATIONS,
  type OperationId,
  type OperationSpec,
} from '../../functions/operations/operations.ts';
import { buildOpenApiDocument } from '../../functions/openapi/document.ts';
import { quotasOf } from '../../functions/openapi/quota-text.ts';
import { findOperation, resolveRef, type OpenApiDocument, type Schema } from '../support/openapi.ts';

const config = loadConfig({
  SITE_URL: 'https://ada.example',
  READ_RATE_LIMIT: '77/30',
  CONTACT_RATE_LIMIT: '3/900',
  BATCH_MAX_OPERATIONS: '9',
});
const doc = buildOpenApiDocument(config) as unknown as OpenApiDocument;
const operationIds = Object.keys(OPERATIONS) as OperationId[];
const spec = (id: OperationId): OperationSpec => OPERATIONS[id];
const schemas = doc.components.schemas as Record<string, Schema>;

/** Every `$ref` anywhere in a value. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, member]) =>
    key === '$ref' && typeof member === 'string' ? [member] : refsIn(member),
  );
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.0.3, version 1.0.0, for the configured server, with no required security', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect((doc.info as { version: string }).version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: 'https://ada.example' }]);
    expect(doc.security).toEqual([]);
  });

  it.each(operationIds)('describes %s at its method and path, with its summary and tag', (id) => {
    const { path, method, operation } = findOperation(doc, id);
    expect(path).toBe(spec(id).path);
    expect(method).toBe(spec(id).method.toLowerCase());
    expect(operation.summary).toBe(spec(id).summary);
    expect(operation.tags).toEqual([spec(id).tag]);
    expect(String(operation.description)).toContain(spec(id).description);
  });

  it.each(operationIds)('documents a status for every error code of %s, naming the code', (id) => {
    const { operation } = findOperation(doc, id);
    for (const code of new Set([...COMMON_ERRORS, ...spec(id).errors])) {
      const response = operation.responses[String(ERROR_CODES[code].status)] as {
        description: string;
        content: Record<string, { schema: Schema }>;
      };
      expect(response, `${id} ${code}`).toBeDefined();
      expect(response.description).toContain(`\`${code}\``);
      const refs = Object.values(response.content).flatMap((media) => refsIn(media.schema));
      expect(
        refs.some((ref) => ref.endsWith('/Error') || ref.endsWith('/Problem')),
        `${id} ${code}`,
      ).toBe(true);
    }
  });

  it('publishes every error code in the Error schema, and the getProject 404 as a problem document', () => {
    expect(resolveRef(doc, schemas.Error!.properties!.code!).enum).toEqual(Object.keys(ERROR_CODES));
    expect(schemas.Problem!.required).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'detail', 'instance', 'code', 'message']),
    );
    const notFound = findOperation(doc, 'getProject').operation.responses['404']!;
    expect(Object.keys(notFound.content!)).toEqual(['application/problem+json']);
    expect(notFound.content!['application/problem+json']!.schema).toEqual({ $ref: '#/components/schemas/Problem' });
  });

  it('resolves every $ref and leaves no component unused', () => {
    const refs = new Set(refsIn(doc));
    for (const ref of refs) expect(() => resolveRef(doc, { $ref: ref })).not.toThrow();
    for (const [kind, components] of Object.entries(doc.components)) {
      if (kind === 'securitySchemes') continue;
      for (const name of Object.keys(components))
        expect(refs.has(`#/components/${kind}/${name}`), `${kind}/${name}`).toBe(true);
    }
  });

  it('writes the configured quotas and limits into the descriptions', () => {
    expect(findOperation(doc, 'listProjects').operation.description).toContain(
      '77 requests per 30 seconds per client IP',
    );
    expect(findOperation(doc, 'createContact').operation.description).toContain(
      '3 messages per 900 seconds per client IP',
    );
    expect(schemas.BatchRequest!.properties!.operations!.maxItems).toBe(9);
  });

  it('sends RateLimit headers on the answers of every charged operation, and X-Request-Id on every answer', () => {
    for (const id of operationIds) {
      const { operation } = findOperation(doc, id);
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers = Object.keys(response.headers ?? {});
        expect(headers, `${id} ${status}`).toContain('X-Request-Id');
        if (status.startsWith('2') && quotasOf(id).length > 0)
          expect(headers, `${id} ${status}`).toContain('RateLimit-Remaining');
        if (status === '429' || status === '503') expect(headers, `${id} ${status}`).toContain('Retry-After');
      }
    }
    expect(Object.keys(findOperation(doc, 'createJob').operation.responses['202']!.headers!)).toEqual(
      expect.arrayContaining(['Location', 'Retry-After']),
    );
  });

  it('requires a UUID Idempotency-Key on createContact', () => {
    const parameters = findOperation(doc, 'createContact').operation.parameters as {
      name?: string;
      in?: string;
      required?: boolean;
      schema?: Schema;
    }[];
    expect(parameters.find((parameter) => parameter.name === 'Idempotency-Key')).toMatchObject({
      in: 'header',
      required: true,
      schema: { format: 'uuid' },
    });
  });

  it('publishes each task with its input and result schema', () => {
    expect(resolveRef(doc, schemas.JobRequest!.properties!.task!).enum).toEqual(TASK_NAMES);
    for (const name of TASK_NAMES) {
      const title = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
      expect(schemas[`${title}TaskInput`], name).toBeDefined();
      expect(schemas[`${title}TaskResult`], name).toBeDefined();
    }
  });

  it('marks the deprecated aliases, with Deprecation and Sunset on their answers', () => {
    for (const id of operationIds) {
      const { operation } = findOperation(doc, id);
      if (spec(id).deprecatedFor === undefined) {
        expect(operation.deprecated, id).toBeUndefined();
        continue;
      }
      expect(operation.deprecated, id).toBe(true);
      for (const response of Object.values(operation.responses))
        expect(Object.keys(response.headers ?? {})).toEqual(expect.arrayContaining(['Deprecation', 'Sunset']));
    }
  });

  it('describes the optional credentials, with the token URL on this server', () => {
    const schemes = doc.components.securitySchemes as Record<
      string,
      { type: string; flows?: { clientCredentials: { tokenUrl: string; scopes: Record<string, string> } } }
    >;
    expect(schemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.oauth2!.flows!.clientCredentials.tokenUrl).toBe('https://ada.example/oauth/token');
    // The scopes the token endpoint grants and the OAuth metadata publishes.
    expect(Object.keys(schemes.oauth2!.flows!.clientCredentials.scopes)).toEqual([...OAUTH_SCOPES]);
    for (const id of operationIds) expect(findOperation(doc, id).operation.security, id).toContainEqual({});
  });

  it('is the same document every time it is built', () => {
    expect(buildOpenApiDocument(config)).toEqual(doc);
  });
});
