import { createHash, randomBytes } from 'node:crypto';

/** Test keys say what they are: `pk_test_` and 32 random bytes (256 bits) in base64url. */
export const TEST_KEY_PREFIX = 'pk_test_';
const KEY_ID_PREFIX = 'key_';
export const TEST_KEY_PATTERN = /^pk_test_[A-Za-z0-9_-]{43}$/;
const KEY_BYTES = 32;

export function newTestKey(): { key: string; keyId: string } {
  return {
    key: `${TEST_KEY_PREFIX}${randomBytes(KEY_BYTES).toString('base64url')}`,
    keyId: `${KEY_ID_PREFIX}${randomBytes(12).toString('base64url')}`,
  };
}

/**
 * What is stored instead of the key. A key carries 256 random bits, so a plain SHA-256 cannot be
 * reversed or guessed; a slow password hash would add nothing but latency to every request.
 */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}
