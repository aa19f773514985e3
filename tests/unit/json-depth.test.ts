import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan, textNestsDeeperThan } from '../../functions/http/json-depth.ts';

const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;

describe('nestsDeeperThan', () => {
  it('counts each array and object as one level', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: [] }] }, 3)).toBe(true);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it('measures a value far deeper than the stack allows recursion to go', () => {
    const deep = nested(200_000);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(nestsDeeperThan(deep)).toBe(true);
  });
});

describe('textNestsDeeperThan', () => {
  it('agrees with the walk over the parsed value, and ignores brackets inside strings', () => {
    const samples = [
      '"text"',
      '[]',
      '{"a": [1, {"b": 2}]}',
      '{"a": [1, {"b": []}]}',
      '{"a": "[[[[", "b": "\\"[[["}',
      '["\\\\", [[]]]',
      '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH),
      '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1),
    ];
    for (const limit of [0, 1, 2, 3, MAX_JSON_DEPTH]) {
      for (const text of samples) {
        expect(textNestsDeeperThan(text, limit), `${limit} ${text.slice(0, 40)}`).toBe(
          nestsDeeperThan(JSON.parse(text), limit),
        );
      }
    }
  });
});
