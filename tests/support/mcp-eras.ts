import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** The 2026-07-28 revision, the one a v2 client ends in when the server speaks it. */
export const MODERN_VERSION = '2026-07-28';

/** A v2 client of one endpoint, connected with the given negotiation mode. */
export async function connectModern(url: string, mode: 'auto' | { pin: string }): Promise<ModernClient> {
  const client = new ModernClient({ name: 'portfolio-tests', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/**
 * A tool result with its text parsed, and without what differs between two calls by design: the
 * request id in an error body, and the `_meta` a 2026-07-28 result carries (serverInfo).
 */
export function comparable(result: Record<string, unknown>) {
  const content = (result.content as { type: string; text: string }[]).map((block) => {
    // Resource links are compared as they are; a text block holds the API's JSON.
    if (block.type !== 'text') return block;
    const { requestId: _requestId, ...parsed } = JSON.parse(block.text) as Record<string, unknown>;
    return { type: block.type, parsed };
  });
  return { isError: result.isError ?? false, content, structuredContent: result.structuredContent };
}

/** The `_meta` every 2026-07-28 request carries: the version, who asks and what it can do. */
export const MODERN_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

export interface RawAnswer {
  status: number;
  body: { result?: Record<string, unknown>; id?: unknown; error?: unknown };
}

/**
 * One 2026-07-28 request as raw HTTP, with the `_meta` envelope and the version and method
 * headers; `params` and `headers` add to or override them.
 */
export async function sendModern(
  url: string,
  id: number,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: MODERN_ENVELOPE, ...params } }),
  });
  return { status: response.status, body: (await response.json()) as RawAnswer['body'] };
}
