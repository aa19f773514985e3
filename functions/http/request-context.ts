import { StorageUnavailable } from './storage-unavailable.ts';
import { ApiError } from './api-error.ts';
import { charge } from './charge.ts';
import { clientKeyOf } from './client-ip.ts';
import type { QuotaBook, QuotaHolder, QuotaName, Tier } from '../limits/quotas.ts';
import type { Eventually } from '../limits/rate-limiter.ts';
import { headerValue, type ApiRequest, type HeaderMap } from './types.ts';

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

/** Who is calling, in which mode, and the one way to charge them; resolved once per request. */
export interface RequestContext extends QuotaHolder {
  keyId: string | null;
  keyStatus: KeyStatus;
  /**
   * Counts `units` (one by default) of a quota against the caller and returns the RateLimit-*
   * headers, or throws a 429 `rate_limited` ApiError carrying them and Retry-After; `what` names
   * the units in its message. Units already paid for this request are used up first (see Paid).
   * Zero units count nothing and give the quota as it stands. A quota counted in this process
   * answers at once; one counted in Redis, with a promise.
   */
  charge(quota: QuotaName, units?: number, what?: string): Eventually<HeaderMap>;
  /** Gives back units charged for a request that turned out not to use the quota (a message not stored). */
  refund(quota: QuotaName, units?: number): Promise<void>;
}

/**
 * Units of quotas a caller already paid for a request elsewhere: the MCP endpoint counts each
 * JSON-RPC message before any work, and the tool that message calls then makes its API request
 * on that count. A context uses them up as it charges, so they pay for one request only.
 */
export type Paid = Partial<Record<QuotaName, number>>;

/** What most requests paid beforehand: nothing. Shared, not allocated per request; never written (nothing to use up). */
const NOTHING_PAID: Paid = Object.freeze({});

/** Checks a presented key or bearer token; returns the key id it stands for, or null. */
export type CredentialVerifier = (credential: string) => Promise<string | null>;

/** Where a context's charges are counted (limits/quotas.ts). */
type Quotas = Pick<QuotaBook, 'account' | 'refund'>;

/** Makes the context of each request: who is calling, and the quotas they are charged on. */
export class RequestContexts {
  constructor(
    private readonly verify: CredentialVerifier,
    private readonly quotas: Quotas,
  ) {}

  /**
   * The caller of an API request. Sandbox is selected by `?sandbox=true`, `X-Sandbox: true` (or
   * `1`), a host whose first label is `sandbox`, or a valid test key. A key that does not verify
   * never fails the request (the API is public, so it never answers 401; see
   * docs/architecture.md): the request is served anonymously and the response says the key was
   * ignored. A key that cannot be checked now (the key store is unreachable) is served the same
   * way, in sandbox mode, and said to be unverified. A bad `sandbox` or X-Sandbox throws.
   */
  of(request: ApiRequest, paid: Paid = NOTHING_PAID): Eventually<RequestContext> {
    const credential = credentialOf(request);
    // Without a credential there is nothing to look up: the context is known at once.
    if (credential === null) return this.contextOf(request, null, null, paid);
    return verifyOrUnknown(this.verify, credential).then((verified) =>
      this.contextOf(request, credential, verified, paid),
    );
  }

  /**
   * A visitor of the site's own pages (the contact form, the search page): anonymous and never in
   * sandbox mode, counted by client IP. Keys and X-Sandbox are the API's, so they are not read.
   */
  visitor(request: ApiRequest): RequestContext {
    const clientKey = clientKeyOf(request.clientIp);
    return new Context(
      { tier: 'anonymous', sandbox: false, quotaKey: clientKey, clientKey, keyId: null, keyStatus: 'none' },
      this.quotas,
      NOTHING_PAID,
    );
  }

  private contextOf(
    request: ApiRequest,
    credential: string | null,
    verified: string | null | 'unknown',
    paid: Paid,
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
    const clientKey = clientKeyOf(request.clientIp);
    const caller: Caller = {
      sandbox,
      tier: keyId === null ? 'anonymous' : 'test',
      keyId,
      keyStatus,
      quotaKey: keyId === null ? clientKey : `key:${keyId}`,
      clientKey,
    };
    return new Context(caller, this.quotas, paid);
  }
}

type Caller = Omit<RequestContext, 'charge' | 'refund'>;

class Context implements RequestContext {
  readonly sandbox: boolean;
  readonly tier: Tier;
  readonly keyId: string | null;
  readonly keyStatus: KeyStatus;
  readonly quotaKey: string;
  readonly clientKey: string;

  constructor(
    caller: Caller,
    private readonly quotas: Quotas,
    private readonly paid: Paid,
  ) {
    this.sandbox = caller.sandbox;
    this.tier = caller.tier;
    this.keyId = caller.keyId;
    this.keyStatus = caller.keyStatus;
    this.quotaKey = caller.quotaKey;
    this.clientKey = caller.clientKey;
  }

  charge(quota: QuotaName, units = 1, what = 'requests'): Eventually<HeaderMap> {
    const covered = Math.min(this.paid[quota] ?? 0, units);
    if (covered > 0) this.paid[quota] = (this.paid[quota] ?? 0) - covered;
    const { limiter, key } = this.quotas.account(this, quota);
    return charge(limiter, key, units - covered, what);
  }

  refund(quota: QuotaName, units = 1): Promise<void> {
    return this.quotas.refund(this, quota, units);
  }
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
  if (request.query.size === 0) return false;
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
