// -32022 UnsupportedProtocolVersion in both eras. A 2026-07-28 request (one with the `_meta`
// envelope) naming a version the endpoint does not serve is refused by the SDK's handler with
// the modern versions, the list server/discover gives; a 2025-era request naming one in
// MCP-Protocol-Version gets, from the SDK's 2025 transport, a -32000 without its id. That one is
// answered here in the same shape, with the versions a request without the envelope may name.
import type { ApiResponse } from '../http/types.ts';
import { LEGACY_PROTOCOL_VERSIONS } from './protocol-versions.ts';

/** UnsupportedProtocolVersionError's code (2026-07-28 schema; in the 2025 era, a server error code). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * The 2025 transport's answer, or, when it refused the MCP-Protocol-Version header (a 400 with
 * -32000 while the header names no version of that era), the same refusal as -32022 with the
 * request's id (JSON-RPC 2.0 section 5), the versions and what was asked.
 */
export function withLegacyVersionRefusal(
  answer: ApiResponse,
  requested: string | undefined,
  id: string | number | null,
): ApiResponse {
  if (answer.status !== 400 || requested === undefined || LEGACY_PROTOCOL_VERSIONS.includes(requested)) return answer;
  const code = (JSON.parse(String(answer.body)) as { error?: { code?: unknown } }).error?.code;
  if (code !== -32000) return answer;
  const supported = [...LEGACY_PROTOCOL_VERSIONS];
  // Status and headers kept; not a length counted for the body replaced (ApiResponse.bodyBytes).
  return {
    status: answer.status,
    headers: answer.headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      error: {
        code: UNSUPPORTED_PROTOCOL_VERSION,
        message: `Unsupported protocol version: ${requested} (this request has no 2026-07-28 _meta; supported: ${supported.join(', ')})`,
        data: { supported, requested },
      },
    }),
  };
}
