import { describe, expect, it } from 'vitest';
import { contactMessageSchema, idempotencyKeyHeader } from '../../functions/contact/schema.ts';
import { fieldProblems, PLAIN_WORDS } from '../../functions/config/field-problems.ts';
import { createKeySchema } from '../../functions/keys/schema.ts';

/**
 * The rules a body is checked by are part of the API's contract, and zod's major versions change
 * their own defaults. These tests pin what 1.x accepted and how it worded its refusals.
 */

/** The email rule of 1.x (zod 3.25's `email()`), written out so a new zod cannot move it. */
const EMAIL_RULE_1X = /^(?!\.)(?!.*\.\.)([A-Z0-9_'+\-.]*)[A-Z0-9_+-]@([A-Z0-9][A-Z0-9-]*\.)+[A-Z]{2,}$/i;

const ADDRESSES = [
  'ada@example.com',
  'Ada.Lindqvist+portfolio@mail.example.se',
  "o'brien@example.ie",
  'x@a.bc',
  'first_last-1@sub.domain.example',
  '.ada@example.com',
  'ada.@example.com',
  'ada..l@example.com',
  'ada@example',
  'ada@-example.com',
  'ada@example.c',
  'ada@@example.com',
  'ada lindqvist@example.com',
  '"ada"@example.com',
  'ada@[192.0.2.1]',
  'åsa@example.se',
  'ada@exämple.se',
  'ada@example.com.',
];

const messageWith = (email: string) => ({ name: 'Ada', email, message: 'Hello there, a message.' });

describe('the contact email rule', () => {
  it.each(ADDRESSES)('treats %s as 1.x did', (email) => {
    expect(contactMessageSchema.safeParse(messageWith(email), PLAIN_WORDS).success).toBe(EMAIL_RULE_1X.test(email));
  });

  it('accepts some and refuses some of the addresses above, so the comparison means something', () => {
    const accepted = ADDRESSES.filter((email) => EMAIL_RULE_1X.test(email));
    expect(accepted.length).toBeGreaterThan(3);
    expect(accepted.length).toBeLessThan(ADDRESSES.length - 3);
  });
});

describe('the Idempotency-Key rule', () => {
  it.each([
    ['a random version 4 UUID', '6f1c1e0e-8c3b-4d2a-9f1e-2b7c4d5e6f70', true],
    ['any 8-4-4-4-12 hex value, whatever its version bits, as 1.x took', '11111111-1111-1111-1111-111111111111', true],
    ['upper-case hex', 'E3EBF8C2-FFFF-8FFF-8000-001D724489AC', true],
    ['no hyphens', '6f1c1e0e8c3b4d2a9f1e2b7c4d5e6f70', false],
    ['a non-hex digit', 'gf1c1e0e-8c3b-4d2a-9f1e-2b7c4d5e6f70', false],
  ])('%s', (_case, key, valid) => {
    expect(idempotencyKeyHeader.safeParse(key).success).toBe(valid);
  });
});

describe('problem texts', () => {
  const problemsOf = (schema: typeof createKeySchema | typeof contactMessageSchema, body: unknown) => {
    const parsed = schema.safeParse(body, PLAIN_WORDS);
    if (parsed.success) throw new Error('expected a refusal');
    return fieldProblems(parsed.error, {
      unknownField: 'is not a field of this operation',
      notAnObject: 'must be an object',
    });
  };

  it('words a missing field, a wrong type and an unknown field as 1.x did', () => {
    expect(problemsOf(contactMessageSchema, { email: 5, message: 'Hello there, a message.', extra: 1 })).toEqual([
      { field: 'name', problem: 'is required' },
      { field: 'email', problem: 'must be a string' },
      { field: 'extra', problem: 'is not a field of this operation' },
    ]);
  });

  it('keeps the texts a rule gives itself', () => {
    expect(problemsOf(contactMessageSchema, messageWith('not an address'))).toEqual([
      { field: 'email', problem: 'must be a valid email address' },
    ]);
  });

  it('words a length rule without its own text like the others', () => {
    expect(problemsOf(createKeySchema, { label: 'x'.repeat(101) })).toEqual([
      { field: 'label', problem: 'must be at most 100 characters' },
    ]);
    expect(problemsOf(createKeySchema, { label: ' ' })).toEqual([
      { field: 'label', problem: 'must be at least 1 character' },
    ]);
  });
});
