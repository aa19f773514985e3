import { OPERATIONS, type OperationId, type OperationSpec } from './operations.ts';

/** A deprecated operation and the one that replaces it. */
export interface DeprecatedAlias {
  operationId: AliasId;
  path: string;
  successor: CurrentId;
  successorPath: string;
}

let aliases: readonly DeprecatedAlias[] | undefined;

/**
 * Deprecated surfaces and their successors, read from the operations table on first use (a
 * table naming an unknown successor fails there, not when the module loads). The unversioned
 * aliases predate /api/v1; they answer exactly like their successors, with Deprecation
 * (RFC 9745), Sunset (RFC 8594) and Link headers pointing at the policy and the successor.
 */
export function deprecatedAliases(): readonly DeprecatedAlias[] {
  aliases ??= (Object.keys(OPERATIONS) as OperationId[]).flatMap((id) => {
    const spec: OperationSpec = OPERATIONS[id];
    if (spec.deprecatedFor === undefined) return [];
    if (!Object.hasOwn(OPERATIONS, spec.deprecatedFor)) throw new Error(`${id} is deprecated for an unknown operation`);
    const successor = spec.deprecatedFor as CurrentId;
    return [{ operationId: id as AliasId, path: spec.path, successor, successorPath: OPERATIONS[successor].path }];
  });
  return aliases;
}

/** The operations with `deprecatedFor` (functions/operations/operations.ts), and the current ones they stand for. */
type AliasId = {
  [K in OperationId]: (typeof OPERATIONS)[K] extends { deprecatedFor: string } ? K : never;
}[OperationId];
export type CurrentId = Exclude<OperationId, AliasId>;

/** When the aliases were deprecated, and when they stop answering (never earlier than deprecation). */
export const DEPRECATED_AT = new Date('2026-01-01T00:00:00Z');
export const SUNSET_AT = new Date('2027-07-01T00:00:00Z');

/** RFC 9745 section 2: an Item Structured Field holding a Date, "@" + Unix seconds. */
export const DEPRECATION_HEADER_VALUE = `@${Math.floor(DEPRECATED_AT.getTime() / 1000)}`;
/** RFC 8594 section 3: an HTTP-date, always in GMT. */
export const SUNSET_HEADER_VALUE = SUNSET_AT.toUTCString();

/** The headers every response of a deprecated alias carries. */
export function deprecationHeaders(siteUrl: string, successorUrl: string): Record<string, string> {
  return {
    deprecation: DEPRECATION_HEADER_VALUE,
    sunset: SUNSET_HEADER_VALUE,
    link: `<${siteUrl}/developers/deprecation>; rel="deprecation"; type="text/html", <${successorUrl}>; rel="successor-version"`,
  };
}
