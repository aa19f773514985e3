import { describe, expect, it } from 'vitest';
import { ApiError } from '../../functions/http/api-error.ts';
import { parseQuery, strictQuery } from '../../functions/http/query.ts';
import { listProjectsQuery } from '../../functions/projects/schema.ts';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof ApiError ? error.code : 'not an ApiError';
  }
  return undefined;
}

const limitOf = (value?: string) =>
  parseQuery(new URLSearchParams(value === undefined ? '' : { limit: value }), listProjectsQuery).limit;

describe('parseQuery with an integer parameter', () => {
  it('defaults when absent and accepts the bounds', () => {
    expect(limitOf()).toBe(20);
    expect(limitOf('1')).toBe(1);
    expect(limitOf('100')).toBe(100);
  });

  it.each(['0', '101', 'abc', '1.5', '', ' 5', '-1', '1e2', '0x10'])(
    'refuses %j with a hint naming the range',
    (value) => {
      try {
        limitOf(value);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).code).toBe('invalid_parameter');
        expect((error as ApiError).hint).toContain('limit=1..100');
      }
    },
  );
});

describe('strictQuery', () => {
  it('names unknown and repeated parameters', () => {
    expect(codeOf(() => strictQuery(new URLSearchParams('limit=1&x=2'), ['limit']))).toBe('unknown_parameter');
    expect(codeOf(() => strictQuery(new URLSearchParams('limit=1&limit=2'), ['limit']))).toBe('invalid_parameter');
    expect(strictQuery(new URLSearchParams('limit=5'), ['limit']).get('limit')).toBe('5');
  });
});
