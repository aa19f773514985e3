import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../functions/contact/contact-service.ts';

describe('fingerprintOf', () => {
  it('ignores key order and whitespace but not values', () => {
    expect(fingerprintOf(JSON.parse('{"a": 1, "b": [1, {"c": 2, "d": 3}]}'))).toBe(
      fingerprintOf({ b: [1, { d: 3, c: 2 }], a: 1 }),
    );
    expect(fingerprintOf({ a: 1 })).not.toBe(fingerprintOf({ a: 2 }));
    expect(fingerprintOf([1, 2])).not.toBe(fingerprintOf([2, 1]));
  });
});
