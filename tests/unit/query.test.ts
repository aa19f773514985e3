import { describe, expect, it } from 'vitest';
import { ApiError } from '../../functions/http/api-error.ts';
import { integerParameter, strictQuery } from '../../functions/http/query.ts';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof ApiError ? error.code : 'not an ApiError';
  }
  return undefined;
}

describe('integerParameter', () => {
  it('defaults when absent and accepts the bounds', () => {
    expect(integerParameter(undefined, 'limit', 1, 100, 20)).toBe(20);
    expect(integerParameter('1', 'limit', 1, 100, 20)).toBe(1);
    expect(integerParameter('100', 'limit', 1, 100, 20)).toBe(100);
  });

  it.each(['0', '101', 'abc', '1.5', '', ' 5', '-1', '1e2', '0x10'])('refuses %j with a hint naming the range', (value) => {
    try {
      integerParameter(value, 'limit', 1, 100, 20);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('invalid_parameter');
      expect((error as ApiError).hint).toContain('limit=1..100');
    }
  });
});

describe('strictQuery', () => {
  it('names unknown and repeated parameters', () => {
    expect(codeOf(() => strictQuery(new URLSearchParams('limit=1&x=2'), ['limit']))).toBe('unknown_parameter');
    expect(codeOf(() => strictQuery(new URLSearchParams('limit=1&limit=2'), ['limit']))).toBe('invalid_parameter');
    expect(strictQuery(new URLSearchParams('limit=5'), ['limit']).get('limit')).toBe('5');
  });
});
