import { ApiError } from '../http/api-error.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The Idempotency-Key of a request, lower-cased. The draft defines the header as a structured
 * field string (RFC 8941 section 3.3.3), so `"<uuid>"` is accepted as well as the bare UUID.
 */
export function parseIdempotencyKey(header: string | undefined): string {
  if (header === undefined || header.trim() === '') {
    throw new ApiError('idempotency_key_missing', 'This operation needs an Idempotency-Key header.', {
      hint: 'Send Idempotency-Key: <a new UUID per message>, and the same one when you retry it.',
    });
  }
  let value = header.trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  if (!UUID.test(value)) {
    throw new ApiError('idempotency_key_invalid', 'The Idempotency-Key header must be a UUID.', {
      hint: 'Use a UUID such as the one crypto.randomUUID() returns.',
    });
  }
  return value.toLowerCase();
}
