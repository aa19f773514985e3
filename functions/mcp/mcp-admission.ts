// What every MCP request passes before an SDK sees it, whichever SDK and era answer it: the Origin
// check, CORS preflight, the bounded body, and the quota charged per JSON-RPC message.
import { ApiError, errorBody, payloadTooLarge, type ErrorBody } from '../http/api-error.ts';
import type { RequestContext, RequestContexts } from '../http/request-context.ts';
import { headerValue, type ApiRequest, type ApiResponse, type HeaderMap } from '../http/types.ts';
import { bodyRequests } from '../http/charge.ts';
import type { Eventually } from '../limits/rate-limiter.ts';
import { FORWARDED_HEADERS, MESSAGE_QUOTA, type McpCaller } from './api-caller.ts';
import type { HostVerdict } from './hosts.ts';
import { PostedBody } from './posted-body.ts';

/** Most bytes one MCP message may have; tool arguments are small (a contact message is 16 KiB at most). */
const MCP_BODY_MAX_BYTES = 64 * 1024;

/**
 * Most JSON-RPC messages one POST may carry as a batch. A client needs one at a time (MCP
 * 2025-06-18 dropped batching); the bound keeps one request from asking for a hundred answers.
 */
export const MCP_MAX_MESSAGES = 10;

export interface AdmissionOptions {
  /**
   * Resolves the caller as the API does (a bad X-Sandbox throws the API's ApiError), so MCP and
   * HTTP requests share one quota.
   */
  contexts: Pick<RequestContexts, 'of'>;
  /** Whether the Host header names a host these servers answer for (hosts.ts). */
  hostVerdict(host: string | undefined): HostVerdict;
  isAllowedOrigin(origin: string): boolean;
  /** The methods the endpoint answers besides OPTIONS. */
  allow: string;
  /** Request headers a browser client may send (the CORS preflight's answer). */
  corsRequestHeaders: string;
}

/** A POST let through: its messages paid for, its body read and bounded. */
export interface AdmittedPost {
  body: PostedBody;
  /** CORS and quota headers every answer to this request carries. */
  headers: HeaderMap;
  /** Anonymous and in live mode: an answer given to one such caller fits every other (answer-memo.ts). */
  publicCaller: boolean;
}

/** The request is answered here (refused, or a preflight), or goes on: a POST admitted, another method as it is. */
export type Admission =
  { answer: ApiResponse } | { post: AdmittedPost } | { other: { headers: HeaderMap; caller: McpCaller } };

/**
 * Checks the Host and the Origin (a browser page of another site may not drive the server, MCP
 * transport "Security Warning": DNS rebinding names the page's site in Host, a cross-site page
 * in Origin), answers the CORS preflight, and for a POST charges one request per JSON-RPC
 * message, batched or not, before any work: what the declared length costs before the body is
 * read (an over-quota client is refused unread), the rest once it is. A refused Host or Origin
 * costs nothing.
 */
export function admit(request: ApiRequest, options: AdmissionOptions): Eventually<Admission> {
  const host = options.hostVerdict(headerValue(request, 'host'));
  if (!host.ok) {
    const refusal = new ApiError(
      'host_not_allowed',
      `Forbidden: ${host.message}. This server answers only for its own host names.`,
      {
        hint: 'Call the server at the address its server card names (see MCP_ALLOWED_HOSTS to serve another name).',
      },
    );
    return idOfBody(request).then((id) => ({
      answer: jsonRpcError(refusal.status, refusal.message, {}, errorBody(refusal, request.requestId), id),
    }));
  }
  const origin = headerValue(request, 'origin');
  if (origin !== undefined && !options.isAllowedOrigin(origin)) {
    return idOfBody(request).then((id) => ({
      answer: jsonRpcError(
        403,
        'Forbidden: this Origin may not call the MCP server (see MCP_ALLOWED_ORIGINS).',
        {},
        undefined,
        id,
      ),
    }));
  }
  const cors: HeaderMap = origin === undefined ? {} : { 'access-control-allow-origin': origin, vary: 'Origin' };
  if (request.method === 'OPTIONS') {
    return {
      answer: {
        status: 204,
        headers: {
          ...cors,
          allow: `${options.allow}, OPTIONS`,
          'access-control-allow-methods': options.allow,
          'access-control-allow-headers': options.corsRequestHeaders,
          'access-control-max-age': '86400',
        },
        body: null,
      },
    };
  }
  if (request.method !== 'POST') return { other: { headers: cors, caller: callerOf(request) } };

  // The quota is charged before the body is read: an over-quota client is refused without its
  // body being read or parsed, so its refusal cannot name the request's id (null). What the
  // length declares is charged first; what the body turns out to cost beyond that, once read.
  // Each step that is known at once (a quota counted in this process) is not awaited: only the
  // body is.
  let posted: PostedBody | undefined;
  const refused = (error: unknown): Admission => {
    if (!(error instanceof ApiError)) throw error;
    return {
      answer: jsonRpcError(
        error.status,
        error.message,
        { ...cors, ...error.headers },
        errorBody(error, request.requestId),
        idOf(posted?.parsed()),
      ),
    };
  };
  /**
   * `next` of a value now, or once its promise settles with a refusal answered here. A value
   * known at once adds no promise, so the usual POST (its quota counted in this process) waits on
   * one only: the body's.
   */
  const thenOrRefused = <T>(value: Eventually<T>, next: (value: T) => Eventually<Admission>) =>
    value instanceof Promise ? value.then(next).catch(refused) : next(value);
  const admitBody = (context: RequestContext, prepaid: number, prepaidHeaders: HeaderMap): Promise<Admission> =>
    request.readBody(MCP_BODY_MAX_BYTES).then((bytes) => {
      try {
        const body = (posted = new PostedBody(bytes));
        const messages = body.messageCount();
        // A batch refused for its length costs one, like any other refused request; a large body more.
        const owed = Math.max(messages > MCP_MAX_MESSAGES ? 1 : messages, bodyRequests(bytes.length)) - prepaid;
        const charged = owed > 0 ? context.charge(MESSAGE_QUOTA, owed) : prepaidHeaders;
        return thenOrRefused(charged, (quotaHeaders): Admission => {
          if (messages > MCP_MAX_MESSAGES) throw tooManyMessages(messages, quotaHeaders);
          return {
            post: {
              body,
              headers: { ...cors, ...quotaHeaders },
              publicCaller: context.keyStatus === 'none' && !context.sandbox,
            },
          };
        });
      } catch (error) {
        return refused(error);
      }
    }, refused);
  try {
    const declared = declaredLength(request);
    // Refused by its declared length before a byte is read, and uncharged, as readBody would.
    if (declared !== undefined && declared > MCP_BODY_MAX_BYTES) throw payloadTooLarge(MCP_BODY_MAX_BYTES);
    const prepaid = bodyRequests(declared ?? 0);
    return thenOrRefused(options.contexts.of(request), (context) =>
      thenOrRefused(context.charge(MESSAGE_QUOTA, prepaid), (prepaidHeaders) =>
        admitBody(context, prepaid, prepaidHeaders),
      ),
    );
  } catch (error) {
    return refused(error);
  }
}

/** The body length the request declares (Content-Length), when it declares one that is a length. */
function declaredLength(request: ApiRequest): number | undefined {
  const value = headerValue(request, 'content-length');
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

function tooManyMessages(count: number, quotaHeaders: HeaderMap): ApiError {
  return new ApiError(
    'too_many_messages',
    `The request holds ${count} JSON-RPC messages; at most ${MCP_MAX_MESSAGES} are allowed.`,
    {
      hint: `Send at most ${MCP_MAX_MESSAGES} messages per request, or one at a time.`,
      headers: quotaHeaders,
    },
  );
}

/** Who sends a request, as the API behind the tools sees it; asked only where a tool may run (not for a kept answer). */
export function callerOf(request: ApiRequest): McpCaller {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = headerValue(request, name);
    if (value !== undefined) headers[name] = value;
  }
  return {
    clientIp: request.clientIp,
    requestId: request.requestId,
    headers,
    sandbox: request.query.get('sandbox') ?? undefined,
  };
}

/**
 * The id of a refused request, so that its refusal names it: the body is read (bounded as
 * always) only for that; a body that cannot be read, or a request without one, gives null.
 */
async function idOfBody(request: ApiRequest): Promise<JsonRpcId> {
  if (request.method !== 'POST') return null;
  try {
    return idOf(new PostedBody(await request.readBody(MCP_BODY_MAX_BYTES)).parsed());
  } catch {
    return null;
  }
}

/** A JSON-RPC request's id; null where it cannot be known (JSON-RPC 2.0 section 5). */
export type JsonRpcId = string | number | null;

/**
 * The id of the one request a body holds, so that an error about it names it (JSON-RPC 2.0
 * section 5); null for a notification, a batch (answered with one error for all of it), a body
 * that is not JSON, or one not read yet.
 */
export function idOf(parsed: unknown): JsonRpcId {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const { id } = parsed as { id?: unknown };
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A JSON-RPC error answer; `data` carries the API's Error body when the API's rules refused the request. */
export function jsonRpcError(
  status: number,
  message: string,
  headers: HeaderMap,
  data?: ErrorBody,
  id: JsonRpcId = null,
): ApiResponse {
  return {
    status,
    headers: { ...headers, 'content-type': 'application/json', 'cache-control': 'no-store' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32000, message, ...(data === undefined ? {} : { data }) },
      id,
    }),
  };
}
