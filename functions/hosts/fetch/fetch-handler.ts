import type { Handle } from '../../app/handle.ts';
import { accessLogFor, callService, serviceHeaderList } from '../../app/service-exchange.ts';
import type { Config } from '../../config/env.ts';
import { clientIpOf } from '../../http/client-ip.ts';
import { RequestAborted } from '../../http/request-aborted.ts';
import { answeredId, requestIdsFor } from '../../http/request-id.ts';
import { securityHeaders } from '../../http/security-headers.ts';
import type { ApiResponse, HeaderMap } from '../../http/types.ts';
import { flushLog } from '../../log/log.ts';
import { toApiRequest } from './web-request.ts';

/**
 * What a host hands the handler beside the request. Netlify Functions, Vercel Functions and
 * Cloudflare Workers each pass a context with `waitUntil` (work the instance is kept alive for
 * after the answer); the client address, where the host knows it (Netlify's `context.ip`,
 * Cloudflare's CF-Connecting-IP), is passed as `clientIp`.
 */
interface HostContext {
  waitUntil?(promise: Promise<unknown>): void;
  /** The client's address as the host saw it; without it, X-Forwarded-For as TRUST_PROXY says. */
  clientIp?: string;
}

/** The Web-standard shape every function host takes. */
export type FetchHandler = (request: Request, context?: HostContext) => Promise<Response>;

export interface FetchHandlerParts {
  config: Config;
  /** The service's one entry (functions/app/handle.ts). */
  handle: Handle;
  /** Headers on every response; by default the security headers for the configured site. */
  commonHeaders?: HeaderMap;
  /**
   * The work a request left due (deliveries of a stored message, a queued job), started only
   * when the host can keep the instance alive for it (`waitUntil`); otherwise the scheduled
   * pass does it. Undefined when nothing is due.
   */
  takeDueWork?: () => Promise<void> | undefined;
}

/** Statuses whose answer has no body (RFC 9110 sections 15.3.5 and 15.4.5). */
const NO_BODY = new Set([204, 304]);

/**
 * The service as a Web-standard fetch handler: the same entry, crash answer, headers, request id
 * and access log as the node listener (functions/app/service-exchange.ts); only the carrying of
 * the request and the answer differs. Quotas, idempotency, Origin checks and the error shape live
 * in the entry itself, so every host has them.
 */
export function fetchHandlerOver({ config, handle, commonHeaders, takeDueWork }: FetchHandlerParts): FetchHandler {
  const commonList = Object.entries(commonHeaders ?? securityHeaders(config)).flat();
  const logAccess = accessLogFor(config);

  return async (request, context) => {
    const started = performance.now();
    const ids = requestIdsFor(request.headers.get('x-request-id') ?? undefined);
    const requestId = answeredId(ids);
    const url = new URL(request.url);
    const clientIp =
      context?.clientIp ??
      clientIpOf(undefined, request.headers.get('x-forwarded-for') ?? undefined, config.trustProxy);
    let response: ApiResponse;
    try {
      response = await callService(handle, toApiRequest(request, url, clientIp, requestId), ids);
    } catch (error) {
      if (!(error instanceof RequestAborted)) throw error;
      // Nobody reads this answer; the log says the client went away (499, as nginx logs it).
      logAccess(ids, clientIp, request.method, url.pathname, 499, started, true);
      flushLog();
      return new Response(null, { status: 499 });
    }
    const work = context?.waitUntil === undefined ? undefined : takeDueWork?.();
    if (work !== undefined) context?.waitUntil?.(work.finally(flushLog));
    logAccess(ids, clientIp, request.method, url.pathname, response.status, started);
    // Written now, not on the log's 50 ms timer: the host may freeze the instance once it has the answer.
    flushLog();
    return toWebResponse(response, request.method, serviceHeaderList(response, commonList, requestId));
  };
}

function toWebResponse(response: ApiResponse, method: string, headerList: readonly string[]): Response {
  const headers = new Headers();
  for (let index = 0; index < headerList.length; index += 2)
    headers.set(headerList[index] as string, headerList[index + 1] as string);
  const body =
    method === 'HEAD' || NO_BODY.has(response.status) || response.body === null
      ? null
      : typeof response.body === 'string'
        ? response.body
        : new Uint8Array(response.body);
  return new Response(body, { status: response.status, headers });
}
