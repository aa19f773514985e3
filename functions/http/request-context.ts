import { StorageUnavailable } from './storage-unavailable.ts';
import { ApiError } from './api-error.ts';
import { clientKeyOf } from './client-ip.ts';
import type { Eventually } from '../limits/rate-limiter.ts';
import { headerValue, type ApiRequest } from './types.ts';

/** Quota tiers: anonymous callers, and callers with a valid test key or token. */
export const TIERS = ['anonymous', 'test'] as const;
export type Tier = (typeof TIERS)[number];

/** Values X-Sandbox accepts; anything else is refused rather than guessed. */
export const SANDBOX_HEADER_VALUES = ['true', '1', 'false', '0'] as const;

/**
 * What a presented key or token turned out to be (X-API-Key-Status): `valid`; `invalid` (unknown,
 * malformed, expired); or `unverified`, when the storage that holds keys could not be reached, so
 * the request is served as an anonymous one in sandbox mode (a read is served as usual; a write
 * never reaches production records). `none` when nothing was presented (no header is sent).
 */
export const KEY_STATUSES = ['valid', 'invalid', 'unverified'] as const;
type KeyStatus = 'none' | (typeof KEY_STATUSES)[number];

/** Who is calling and in which mode; resolved once per request by the router. */
export interface RequestContext {
  sandbox: boolean;
  tier: Tier;
  keyId: string | null;
  keyStatus: KeyStatus;
  /** The identity quotas count against: the key when there is one, else the client IP (its /64 for IPv6). */
  quotaKey: string;
}

/** Checks a presented key or bearer token; returns the key id it stands for, or null. */
export type CredentialVerifier = (credential: string) => Promise<string | null>;

/**
 * Resolves sandbox mode and the tier. Sandbox is selected by `?sandbox=true`, `X-Sandbox: true`
 * (or `1`), a host whose first label is `sandbox`, or a valid test key. A key that does not
 * verify never fails the request (the API is public, so it never answers 401; see docs/architecture.md): the request
 * is served anonymously and the response says the key was ignored. A key that cannot be checked
 * now (the key store is unreachable) is served the same way, in sandbox mode, and said to be unverified.
 */
export function resolveContext(request: ApiRequest, verify: CredentialVerifier): Eventually<RequestContext> {
  const credential = credentialOf(request);
  // Without a credential there is nothing to look up: the context is known at once.
  if (credential === null) return contextOf(request, null, null);
  return verifyOrUnknown(verify, credential).then((verified) => contextOf(request, credential, verified));
}

function contextOf(
  request: ApiRequest,
  credential: string | null,
  verified: string | null | 'unknown',
): RequestContext {
  const keyId = verified === 'unknown' ? null : verified;
  const keyStatus: KeyStatus =
    credential === null ? 'none' : verified === 'unknown' ? 'unverified' : keyId === null ? 'invalid' : 'valid';
  const sandbox =
    keyId !== null ||
    keyStatus === 'unverified' ||
    sandboxByQuery(request) ||
    sandboxByHeader(request) ||
    sandboxByHost(request);
  return {
    sandbox,
    tier: keyId === null ? 'anonymous' : 'test',
    keyId,
    keyStatus,
    quotaKey: keyId === null ? clientKeyOf(request.clientIp) : `key:${keyId}`,
  };
}

/**
 * The key id a credential stands for, null when it does not verify, or `unknown` when the storage
 * that holds keys cannot be reached: the public reads a caller makes do not need it.
 */
async function verifyOrUnknown(verify: CredentialVerifier, credential: string): Promise<string | null | 'unknown'> {
  try {
    return await verify(credential);
  } catch (error) {
    if (error instanceof StorageUnavailable) return 'unknown';
    throw error;
  }
}

/**
 * `Authorization: Bearer <credential>` (RFC 6750 section 2.1) or `X-API-Key: <credential>`.
 * Other Authorization schemes (Basic, for the token endpoint) are not API credentials.
 */
function credentialOf(request: ApiRequest): string | null {
  const bearer = /^Bearer(?:\s+(\S*))?\s*$/i.exec(headerValue(request, 'authorization') ?? '');
  if (bearer) return bearer[1] ?? '';
  const apiKey = headerValue(request, 'x-api-key')?.trim();
  return apiKey === undefined ? null : apiKey;
}

function sandboxByQuery(request: ApiRequest): boolean {
  const values = request.query.getAll('sandbox');
  if (values.length === 0) return false;
  if (values.length > 1 || (values[0] !== 'true' && values[0] !== 'false')) {
    throw new ApiError('invalid_parameter', 'Query parameter "sandbox" must be true or false, given once.', {
      hint: 'Use sandbox=true.',
    });
  }
  return values[0] === 'true';
}

function sandboxByHeader(request: ApiRequest): boolean {
  const header = headerValue(request, 'x-sandbox');
  if (header === undefined) return false;
  const value = header.trim().toLowerCase();
  if (!(SANDBOX_HEADER_VALUES as readonly string[]).includes(value)) {
    throw new ApiError('invalid_header', `X-Sandbox must be one of: ${SANDBOX_HEADER_VALUES.join(', ')}.`, {
      hint: 'Send X-Sandbox: true to use sandbox mode, or leave the header out.',
    });
  }
  return value === 'true' || value === '1';
}

function sandboxByHost(request: ApiRequest): boolean {
  const host = headerValue(request, 'host') ?? '';
  return host.toLowerCase().startsWith('sandbox.');
}
