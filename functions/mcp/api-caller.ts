import type { Router } from '../http/router.ts';
import { payloadTooLarge } from '../http/api-error.ts';
import type { Paid } from '../http/request-context.ts';
import type { ApiRequest } from '../http/types.ts';
import type { QuotaName } from '../limits/quotas.ts';

/**
 * What every JSON-RPC message costs, charged by the MCP endpoint before any work: one request of
 * the API's read quota, shared with HTTP callers. A tools/call message's first API request is
 * that one (tool-registry.ts), so a tool costs what its operation costs over HTTP.
 */
export const MESSAGE_QUOTA: QuotaName = 'read';

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
}

/** The API's answer: its status and its JSON body (null when it had none). */
export interface ApiOutcome {
  status: number;
  body: unknown;
}

/** `paid`: quota the caller already paid for this call (see Paid); used up by the calls that draw on it. */
export type ApiCaller = (call: ApiCall, paid?: Paid) => Promise<ApiOutcome>;

/**
 * Calls an operation of the API in process: the request goes through the same Router as one
 * arriving over HTTP, so the same handler, quota and error shape answer it.
 */
export function apiCaller(router: Pick<Router, 'handle'>, caller: McpCaller): ApiCaller {
  return async (call, paid) => {
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
      readBody: (maxBytes) => {
        if (body !== null && body.length > maxBytes) return Promise.reject(payloadTooLarge(maxBytes));
        return Promise.resolve(body ?? Buffer.alloc(0));
      },
    };
    const response = await router.handle(request, paid);
    const text = response.body === null ? '' : response.body.toString();
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
  };
}
