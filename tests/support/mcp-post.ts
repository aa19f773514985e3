import type { ApiRequest } from '../../functions/http/types.ts';

/**
 * An MCP POST as an endpoint sees it in process: the headers given, and with a body its
 * Content-Length too. Without one, the request stands for its headers alone (the fast paths'
 * checks read the body parsed, beside it).
 */
export function mcpPost(
  headers: Record<string, string>,
  { body, path = '/mcp', requestId = 'test' }: { body?: string; path?: string; requestId?: string } = {},
): ApiRequest {
  const raw = Buffer.from(body ?? '');
  return {
    method: 'POST',
    path,
    query: new URLSearchParams(),
    headers: body === undefined ? headers : { ...headers, 'content-length': String(raw.length) },
    clientIp: '127.0.0.1',
    requestId,
    readBody: () => Promise.resolve(raw),
  };
}
