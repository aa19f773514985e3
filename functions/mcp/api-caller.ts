import type { Router } from '../http/router.ts';
import { payloadTooLarge } from '../http/api-error.ts';
import type { ApiRequest } from '../http/types.ts';

/**
 * Who sent an MCP request, as the API needs to know it: the client IP its quotas count against,
 * and the headers that select sandbox mode and the tier (a key or token, X-Sandbox, a sandbox
 * host). A tool call carries them into the API request it makes, so every rule of the API
 * (validation, quotas, idempotency, sandbox) applies to MCP clients unchanged.
 */
export interface McpCaller {
  clientIp: string;
  requestId: string;
  headers: Readonly<Record<string, string>>;
  /** `sandbox` from the MCP endpoint's query string (`/mcp?sandbox=true`), passed on as it is. */
  sandbox: string | undefined;
}

/** Headers of an MCP request that a tool call passes on to the API. */
export const FORWARDED_HEADERS = ['authorization', 'x-api-key', 'x-sandbox', 'host'] as const;

interface ApiCall {
  method: 'GET' | 'POST';
  /** The path with its parameters already filled in and encoded. */
  path: string;
  query?: URLSearchParams;
  headers?: Readonly<Record<string, string>>;
  /** Sent as JSON; absent means no body. */
  body?: unknown;
  /** The MCP endpoint already counted this call's request (see ApiRequest.prepaid). */
  prepaid?: boolean;
}

/** The API's answer: its status and its JSON body (null when it had none). */
export interface ApiOutcome {
  status: number;
  body: unknown;
}

export type ApiCaller = (call: ApiCall) => Promise<ApiOutcome>;

/**
 * Calls an operation of the API in process: the request goes through the same Router as one
 * arriving over HTTP, so the same handler, quota and error shape answer it.
 */
export function apiCaller(router: Pick<Router, 'handle'>, caller: McpCaller): ApiCaller {
  return async (call) => {
    const query = new URLSearchParams(call.query);
    if (caller.sandbox !== undefined) query.set('sandbox', caller.sandbox);
    const body = call.body === undefined ? null : Buffer.from(JSON.stringify(call.body));
    const request: ApiRequest = {
      method: call.method,
      path: call.path,
      query,
      headers: {
        ...caller.headers,
        ...(body === null ? {} : { 'content-type': 'application/json', 'content-length': String(body.length) }),
        ...call.headers,
      },
      clientIp: caller.clientIp,
      requestId: caller.requestId,
      prepaid: call.prepaid === true,
      readBody: (maxBytes) => {
        if (body !== null && body.length > maxBytes) return Promise.reject(payloadTooLarge(maxBytes));
        return Promise.resolve(body ?? Buffer.alloc(0));
      },
    };
    const response = await router.handle(request);
    const text = response.body === null ? '' : response.body.toString();
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
  };
}
