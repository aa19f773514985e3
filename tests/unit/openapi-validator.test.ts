import { describe, expect, it } from 'vitest';
import { validateResponse, validateSchema, type OpenApiDocument, type Schema } from '../support/openapi.ts';

/** A small document in the shape functions/openapi/ generates, to test the test helper itself. */
const doc: OpenApiDocument = {
  openapi: '3.0.3',
  components: {
    schemas: {
      Thing: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          count: { type: 'integer', minimum: 0, maximum: 10 },
          label: { type: 'string', nullable: true, maxLength: 5 },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        },
        required: ['id', 'count'],
      },
      Other: {
        type: 'object',
        properties: { other: { type: 'boolean' } },
        required: ['other'],
        additionalProperties: false,
      },
      Either: {
        type: 'object',
        nullable: true,
        properties: {},
        anyOf: [{ $ref: '#/components/schemas/Thing' }, { $ref: '#/components/schemas/Other' }],
      },
    },
    headers: { Count: { required: true, schema: { type: 'integer', minimum: 0 } } },
  },
  paths: {
    '/things': {
      get: {
        operationId: 'getThing',
        responses: {
          200: {
            headers: { 'X-Count': { $ref: '#/components/headers/Count' } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          304: {},
        },
      },
    },
  },
};

const thing = { id: '3b241101-e2bb-4255-8caf-4136c566a962', count: 3, label: null, tags: ['a'] };
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

describe('validateSchema', () => {
  it('accepts a conforming value', () => {
    expect(validateSchema(doc, ref('Thing'), thing)).toEqual([]);
  });

  it('reports each broken rule with its path', () => {
    const errors = validateSchema(doc, ref('Thing'), { id: 'nope', count: 11, label: 'too long', tags: ['c'] });
    expect(errors).toEqual([
      '$.id: is not a valid uuid',
      '$.count: 11 > maximum 10',
      '$.label: longer than 5',
      '$.tags[0]: "c" is not one of ["a","b"]',
    ]);
    expect(validateSchema(doc, ref('Thing'), { id: thing.id })).toEqual(['$.count: is required']);
    expect(validateSchema(doc, ref('Thing'), { ...thing, count: 1.5 })).toEqual([
      '$.count: is number, expected integer',
    ]);
  });

  it('honours nullable and additionalProperties, and closes open objects on request', () => {
    expect(validateSchema(doc, ref('Thing'), null)).toEqual(['$: is null but not nullable']);
    expect(validateSchema(doc, ref('Other'), { other: true, extra: 1 })).toEqual([
      '$.extra: is not a documented property',
    ]);
    expect(validateSchema(doc, ref('Thing'), { ...thing, extra: 1 })).toEqual([]);
    expect(validateSchema(doc, ref('Thing'), { ...thing, extra: 1 }, '$', { closed: true })).toEqual([
      '$.extra: is not a documented property',
    ]);
  });

  it('needs one alternative of an anyOf to match', () => {
    expect(validateSchema(doc, ref('Either'), null)).toEqual([]);
    expect(validateSchema(doc, ref('Either'), { other: false }, '$', { closed: true })).toEqual([]);
    expect(validateSchema(doc, ref('Either'), thing, '$', { closed: true })).toEqual([]);
    expect(validateSchema(doc, ref('Either'), { other: 'no' })[0]).toMatch(/^\$: matches none of 2 alternatives/);
  });
});

describe('validateResponse', () => {
  const headers = (count: string) => new Headers({ 'x-count': count });

  it('checks status, media type, body and headers', () => {
    expect(
      validateResponse(doc, 'getThing', {
        status: 200,
        contentType: 'application/json; charset=utf-8',
        body: thing,
        headers: headers('3'),
      }),
    ).toEqual([]);
    expect(validateResponse(doc, 'getThing', { status: 304, contentType: null, body: undefined })).toEqual([]);
    expect(validateResponse(doc, 'getThing', { status: 404, contentType: 'application/json', body: {} })).toEqual([
      'getThing: status 404 is not documented',
    ]);
    expect(validateResponse(doc, 'getThing', { status: 200, contentType: 'text/plain', body: 'x' })).toEqual([
      'getThing 200: media type "text/plain" is not documented',
    ]);
    expect(
      validateResponse(doc, 'getThing', {
        status: 200,
        contentType: 'application/json',
        body: thing,
        headers: headers('x'),
      }),
    ).toEqual(['getThing 200 header X-Count: is string, expected integer']);
    expect(
      validateResponse(doc, 'getThing', {
        status: 200,
        contentType: 'application/json',
        body: thing,
        headers: new Headers(),
      }),
    ).toEqual(['getThing 200: required header X-Count is missing']);
  });
});
