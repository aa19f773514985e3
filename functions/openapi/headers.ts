import type { HeaderObject, ParameterObject, ReferenceObject } from 'openapi3-ts/oas30';
import { KEY_STATUSES, SANDBOX_HEADER_VALUES } from '../http/request-context.ts';
import { TIERS } from '../limits/quotas.ts';
import { DEPRECATED_AT, DEPRECATION_HEADER_VALUE, SUNSET_HEADER_VALUE } from '../operations/deprecation.ts';
import { API_VERSIONS } from '../http/router.ts';

const integer = { type: 'integer', minimum: 0 } as const;

/** Response headers, published once under components.headers and referenced by each response. */
export const RESPONSE_HEADERS = {
  'X-Request-Id': {
    description:
      'Identifies this request in the logs (also `requestId` in error bodies). A well-formed X-Request-Id sent by the client is echoed.',
    required: true,
    schema: { type: 'string' },
  },
  'X-Quota-Tier': {
    description: 'The quota tier that served the request: `anonymous`, or `test` with a valid test key or token.',
    schema: { type: 'string', enum: [...TIERS] },
  },
  'X-Sandbox': {
    description: 'Sent, as `true`, when the request ran in sandbox mode.',
    schema: { type: 'string', enum: ['true'] },
  },
  'X-API-Key-Status': {
    description:
      'Sent when a key or bearer token was presented: `valid`; `invalid` when it was ignored and the request was served anonymously; `unverified` when it could not be checked because the storage was unreachable, and the request was served anonymously in sandbox mode (reads as usual; writes stay in the sandbox).',
    schema: { type: 'string', enum: [...KEY_STATUSES] },
  },
  // Referenced only where the quota was counted, and then always sent.
  'RateLimit-Limit': { description: 'Requests the quota allows per window.', required: true, schema: integer },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', required: true, schema: integer },
  'RateLimit-Reset': {
    description: 'Seconds until the current window resets (not a timestamp).',
    required: true,
    schema: integer,
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again (RFC 9110 section 10.2.3, delay-seconds).',
    schema: integer,
  },
  Location: {
    description: 'Where to poll the job; the same URL as `pollUrl`.',
    schema: { type: 'string', format: 'uri' },
  },
  ETag: {
    description: 'Strong validator of the representation; send it back in If-None-Match.',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: 'Sent, as `true`, when this answer replays the first one given for the Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  Link: {
    description:
      'RFC 8288 links: the api-catalog and this description (`service-desc`); on a deprecated alias also the deprecation policy and the successor.',
    schema: { type: 'string' },
  },
  'WWW-Authenticate': {
    description: 'The challenge for HTTP Basic client authentication (RFC 6749 section 5.2).',
    schema: { type: 'string' },
  },
} satisfies Record<string, HeaderObject>;

/** Headers of deprecated aliases only, published when the API has any (functions/operations/deprecation.ts). */
export const DEPRECATION_HEADERS = {
  Deprecation: {
    description: `When the operation was deprecated, as \`@\` and Unix seconds (RFC 9745): \`${DEPRECATION_HEADER_VALUE}\` (${DEPRECATED_AT.toISOString().slice(0, 10)}).`,
    schema: { type: 'string' },
  },
  Sunset: {
    description: `When the operation stops answering, as an HTTP-date (RFC 8594): ${SUNSET_HEADER_VALUE}.`,
    schema: { type: 'string' },
  },
} satisfies Record<string, HeaderObject>;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS | keyof typeof DEPRECATION_HEADERS;

/** What every response carries, whatever the operation and status. */
export const EVERY_RESPONSE: readonly ResponseHeaderName[] = [
  'X-Request-Id',
  'X-Quota-Tier',
  'X-Sandbox',
  'X-API-Key-Status',
  'Link',
];
export const RATE_LIMIT: readonly ResponseHeaderName[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/**
 * RateLimit-* on the errors of a charged operation: sent when the failure came after the quota
 * was counted (a bad parameter is found after the charge, a bad X-Sandbox header before it),
 * so they are listed there as optional, inline, beside the required ones of the successes.
 */
export const RATE_LIMIT_ON_ERRORS: Record<string, HeaderObject> = Object.fromEntries(
  RATE_LIMIT.map((name) => {
    const { description, schema } = RESPONSE_HEADERS[name as keyof typeof RESPONSE_HEADERS];
    return [name, { description: `${description} Sent when the quota was counted before the request failed.`, schema }];
  }),
);

export function headerRefs(names: readonly ResponseHeaderName[]): Record<string, ReferenceObject> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** Request parameters shared by several operations, published once under components.parameters. */
export const PARAMETERS = {
  Sandbox: {
    name: 'sandbox',
    in: 'query',
    description: '`true` runs the request in sandbox mode: no production data is read or written.',
    schema: { type: 'boolean' },
  },
  SandboxHeader: {
    name: 'X-Sandbox',
    in: 'header',
    description:
      '`true` or `1` selects sandbox mode, like the `sandbox` query parameter; other values are refused with `invalid_header`.',
    schema: { type: 'string', enum: [...SANDBOX_HEADER_VALUES] },
  },
  ApiVersion: {
    name: 'X-API-Version',
    in: 'header',
    description:
      'The interface version, as an alternative to the /api/v1 path prefix; any other value is refused with `unsupported_api_version`.',
    schema: { type: 'string', enum: [...API_VERSIONS] },
  },
  RequestId: {
    name: 'X-Request-Id',
    in: 'header',
    description:
      'Your own request id; echoed back (and in error bodies) when it is short and plain, otherwise the response carries ours. The log keeps both.',
    schema: { type: 'string' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description:
      'An ETag from an earlier answer; while it still matches, the answer is 304 without a body (RFC 9110 section 13.1.2).',
    schema: { type: 'string' },
  },
} satisfies Record<string, ParameterObject>;

export type ParameterName = keyof typeof PARAMETERS;

/** What every operation accepts: the mode, version and request id selectors the router reads. */
export const EVERY_OPERATION: readonly ParameterName[] = ['Sandbox', 'SandboxHeader', 'ApiVersion', 'RequestId'];

export function parameterRefs(names: readonly ParameterName[]): ReferenceObject[] {
  return names.map((name) => ({ $ref: `#/components/parameters/${name}` }));
}
