import { ApiError } from './api-error.ts';
import { headerValue, type ApiRequest } from './types.ts';

/** Values X-Sandbox accepts; anything else is refused rather than guessed. */
export const SANDBOX_HEADER_VALUES = ['true', '1', 'false', '0'] as const;

/**
 * Whether a request runs in sandbox mode: `?sandbox=true` or `X-Sandbox: true` (or `1`).
 * Sandbox requests are validated and answered as in production but never touch production records.
 */
export function isSandbox(request: ApiRequest, sandboxParameter: string | undefined): boolean {
  let sandbox = false;
  if (sandboxParameter !== undefined) {
    if (sandboxParameter !== 'true' && sandboxParameter !== 'false') {
      throw new ApiError('invalid_parameter', 'Query parameter "sandbox" must be true or false.', { hint: 'Use sandbox=true.' });
    }
    sandbox = sandboxParameter === 'true';
  }
  const header = headerValue(request, 'x-sandbox');
  if (header !== undefined) {
    const value = header.trim().toLowerCase();
    if (!(SANDBOX_HEADER_VALUES as readonly string[]).includes(value)) {
      throw new ApiError('invalid_header', `X-Sandbox must be one of: ${SANDBOX_HEADER_VALUES.join(', ')}.`, {
        hint: 'Send X-Sandbox: true to use sandbox mode, or leave the header out.',
      });
    }
    sandbox ||= value === 'true' || value === '1';
  }
  return sandbox;
}
