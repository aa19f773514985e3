// How a request the MCP admission let through crosses to an SDK's Web-standard handler and
// back (era-endpoint.ts): the web Request it reads, its Response as the router's answer, and the
// request's id put into a transport refusal that could not read it.
import type { ApiRequest, ApiResponse, HeaderMap } from '../http/types.ts';
import type { JsonRpcId } from './mcp-admission.ts';

/**
 * The web Request an SDK reads; the body was already read (and bounded) here, and goes along
 * only when it is not JSON (`body` null otherwise).
 */
export function webRequest(request: ApiRequest, siteUrl: string, body: Buffer | null): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const search = request.query.size > 0 ? `?${request.query.toString()}` : '';
  return new Request(`${siteUrl}${request.path}${search}`, {
    method: request.method,
    headers,
    body: body === null ? null : new Uint8Array(body),
  });
}

/** An SDK's web Response as the router's answer, with the headers this endpoint adds. */
export async function apiResponse(response: Response, headers: HeaderMap): Promise<ApiResponse> {
  const merged: HeaderMap = { ...headers, 'cache-control': 'no-store' };
  response.headers.forEach((value, name) => {
    merged[name] = value;
  });
  const text = await response.text();
  return { status: response.status, headers: merged, body: text === '' ? null : text };
}

/**
 * An SDK transport's error answer naming the request's id where it says null: the 2025 transport
 * refuses a request for its headers (Accept, Content-Type: 406, 415) before it reads the message,
 * but the body was already read here, and an error about a request whose id can be read names it
 * (JSON-RPC 2.0 section 5). Any other answer is returned as it is.
 */
export function withRequestId(answer: ApiResponse, id: JsonRpcId): ApiResponse {
  if (id === null || answer.status < 400 || typeof answer.body !== 'string') return answer;
  let message: unknown;
  try {
    message = JSON.parse(answer.body);
  } catch {
    return answer;
  }
  if (typeof message !== 'object' || message === null || !('error' in message) || !('id' in message)) return answer;
  if (message.id !== null) return answer;
  // Not `...answer`: a length counted for the body replaced would go with it (ApiResponse.bodyBytes).
  return { status: answer.status, headers: answer.headers, body: JSON.stringify({ ...message, id }) };
}
