import { StorageUnavailable } from './storage-unavailable.ts';
import { ApiError } from './api-error.ts';

/**
 * The answer to an expected failure: an ApiError as it is, and a storage failure as a 503
 * `storage_unavailable` (nothing was stored, retry later) instead of a 500. Anything else is
 * a bug, and undefined here.
 */
export function asApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof StorageUnavailable) {
    return new ApiError('storage_unavailable', 'The service cannot store anything right now; nothing was stored.', {
      hint: 'Retry after the Retry-After delay with the same Idempotency-Key.',
      headers: { 'retry-after': '30' },
    });
  }
  return undefined;
}
