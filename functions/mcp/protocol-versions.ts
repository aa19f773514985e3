// The MCP protocol versions these servers serve and name, in one place: initialize negotiates
// among the 2025-era ones, -32022 refusals list them, and the server cards offer them.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/**
 * The per-request (2026-07-28 and later) revisions the SDK serves: its
 * SUPPORTED_MODERN_PROTOCOL_VERSIONS, which it does not export; tests/api/mcp-versions.test.ts
 * and tests/system/mcp-cards-inspector.test.ts hold this list to what server/discover answers.
 */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** The revisions of the MCP specification that were published (each has its own specification tree). */
const PUBLISHED_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/**
 * The 2025-era versions served (initialize, MCP-Protocol-Version), newest first: the SDK's
 * SUPPORTED_PROTOCOL_VERSIONS that are published revisions. The SDK also accepts 2024-10-07, a
 * pre-release date that was never published, so these servers neither accept nor name it.
 */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS.filter((version) =>
  PUBLISHED_PROTOCOL_VERSIONS.includes(version),
);

/** The first revision whose schema has `resource_link` content blocks. */
const RESOURCE_LINKS_SINCE = '2025-06-18';

/**
 * Whether a request of this MCP-Protocol-Version may be answered with `resource_link` blocks: a
 * client of an earlier revision (or one naming none, which the 2025 transport takes as
 * 2025-03-26) would not know the block. Versions are dates, so they compare as text.
 */
export function knowsResourceLinks(version: string | undefined | null): boolean {
  return typeof version === 'string' && version >= RESOURCE_LINKS_SINCE;
}
