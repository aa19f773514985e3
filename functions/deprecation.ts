import { OPERATIONS, type OperationId, type OperationSpec } from './operations.ts';

/**
 * Deprecated surfaces and their successors. The unversioned aliases predate /api/v1; they
 * answer exactly like their successors, with Deprecation (RFC 9745), Sunset (RFC 8594) and
 * Link headers pointing at the policy and the successor.
 */
export const DEPRECATED_ALIASES = (Object.keys(OPERATIONS) as OperationId[]).flatMap((id) => {
  const spec: OperationSpec = OPERATIONS[id];
  if (spec.deprecatedFor === undefined) return [];
  const successor = spec.deprecatedFor as OperationId;
  return [{ operationId: id, path: spec.path, successor, successorPath: OPERATIONS[successor].path }];
});

/** When the aliases were deprecated, and when they stop answering (never earlier than deprecation). */
export const DEPRECATED_AT = new Date('2026-01-01T00:00:00Z');
export const SUNSET_AT = new Date('2027-07-01T00:00:00Z');

/** The headers every response of a deprecated alias carries. */
export function deprecationHeaders(siteUrl: string, successorUrl: string): Record<string, string> {
  return {
    // RFC 9745 section 2: an Item Structured Field holding a Date, "@" + Unix seconds.
    deprecation: `@${Math.floor(DEPRECATED_AT.getTime() / 1000)}`,
    // RFC 8594 section 3: an HTTP-date, always in GMT.
    sunset: SUNSET_AT.toUTCString(),
    link: `<${siteUrl}/developers/deprecation>; rel="deprecation"; type="text/html", <${successorUrl}>; rel="successor-version"`,
  };
}
