import type { IncomingMessage, ServerResponse } from 'node:http';
import { isServicePath, type Handle } from '../../app/handle.ts';
import type { Config } from '../../config/env.ts';
import { clientIpOf } from '../../http/client-ip.ts';
import { ifNoneMatchHits } from '../../http/etag.ts';
import { RequestAborted } from '../../http/request-aborted.ts';
import { methodNotAllowed } from '../../http/method-not-allowed.ts';
import { answeredId, requestIdsFor, type RequestIds } from '../../http/request-id.ts';
import { securityHeaders } from '../../http/security-headers.ts';
import { headerValue, type ApiResponse, type HeaderMap } from '../../http/types.ts';
import { logWarning } from '../../log/log.ts';
import { accessLogFor, lastResortAnswer } from '../../app/service-exchange.ts';
import { splitTarget, toApiRequest } from './node-request.ts';
import { prefersMarkdown } from '../../http/prefers-markdown.ts';
import { variantFor, type StaticFiles } from './static-files.ts';
import { answerHeaderList, failSafe, writeApiResponse } from './write-answer.ts';
import { sendFromDisk } from './send-from-disk.ts';
import { notFoundOrRedirect } from './not-found.ts';

/** Re-exported for the api test tier (tests/support/api.ts), which answers as this listener does. */
export { answerHeaderList, lastResortAnswer };

export interface ListenerParts {
  config: Config;
  /** The service's one entry (functions/app/handle.ts), for every path it answers. */
  handle: Handle;
  /** The prerendered output; without it (under `astro dev`, which renders pages itself) other paths go to `next`. */
  statics?: StaticFiles;
  /** Headers on every response; by default the security headers for the configured site. */
  commonHeaders?: HeaderMap;
}

/**
 * The production request path: the service's paths go straight to its one entry (the router and
 * the endpoints, functions/app/handle.ts), prerendered pages and documents come from memory when hot and from disk otherwise, and
 * anything else is the 404 page. `astro dev` mounts the same listener without the files, as a
 * connect middleware (src/lib/dev-service.ts). Every page is prerendered, so Astro's request
 * handler has nothing to render here (and, mounted, it answers 500 for `/404`).
 *
 * Every response gets the security headers, an X-Request-Id and one access-log line. Headers
 * go to `writeHead` in one object: a single `setHeader` beforehand would send node down its
 * slow path for every header.
 */
export function createRequestListener({ config, handle, statics, commonHeaders }: ListenerParts) {
  const common = commonHeaders ?? securityHeaders(config);
  const commonList = Object.entries(common).flat();

  const logAccess = accessLogFor(config);

  /**
   * Runs a handler; whatever it throws or rejects with ends here or in the router, and is logged
   * with the request's id. (A request scope through AsyncLocalStorage would also name requests in
   * errors nobody caught, but on node 20 it hooks every promise: 7 % of the read throughput.)
   */
  function serveDynamic(
    req: IncomingMessage,
    res: ServerResponse,
    ids: RequestIds,
    clientIp: string,
    path: string,
    search: string,
    started: number,
  ): void {
    const method = req.method ?? 'GET';
    const requestId = answeredId(ids);
    // The entry itself, not callService: what it throws or rejects with ends in settleFailure,
    // which answers a failure as callService would (failSafe), without a promise more per request.
    let answered: ReturnType<Handle>;
    try {
      answered = handle(toApiRequest(req, path, search, clientIp, requestId));
    } catch (error) {
      settleFailure(res, ids, clientIp, method, path, started, error);
      return;
    }
    // A cached read is answered at once: no promise, no turn of the event loop in between.
    if (answered instanceof Promise) {
      answered.then(
        (response) => deliver(req, res, response, ids, clientIp, method, path, started),
        (error: unknown) => settleFailure(res, ids, clientIp, method, path, started, error),
      );
    } else {
      deliver(req, res, answered, ids, clientIp, method, path, started);
    }
  }

  function deliver(
    req: IncomingMessage,
    res: ServerResponse,
    response: ApiResponse,
    ids: RequestIds,
    clientIp: string,
    method: string,
    path: string,
    started: number,
  ): void {
    try {
      if (res.destroyed) throw new RequestAborted('client');
      writeApiResponse(res, response, commonList, method, answeredId(ids), req.headers['content-length']);
      logAccess(ids, clientIp, method, path, res.statusCode, started);
    } catch (error) {
      settleFailure(res, ids, clientIp, method, path, started, error);
    }
  }

  /** A request that ended without its answer: the client went away or timed out, or something failed. */
  function settleFailure(
    res: ServerResponse,
    ids: RequestIds,
    clientIp: string,
    method: string,
    path: string,
    started: number,
    error: unknown,
  ): void {
    if (error instanceof RequestAborted) {
      res.destroy();
      logAccess(ids, clientIp, method, path, error.reason === 'timeout' ? 408 : 499, started, true);
      return;
    }
    failSafe(res, ids, error, commonList);
    logAccess(ids, clientIp, method, path, res.statusCode, started);
  }

  // Only with TRUST_PROXY=0, and only until the first X-Forwarded-For: then a boolean per request.
  let proxyWarningDue = config.trustProxy === 0;

  return (req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    const started = performance.now();
    const ids = requestIdsFor(req.headers['x-request-id']);
    const forwardedFor = req.headers['x-forwarded-for'];
    const clientIp = clientIpOf(req.socket.remoteAddress, forwardedFor, config.trustProxy);
    if (proxyWarningDue && forwardedFor !== undefined) {
      proxyWarningDue = false;
      warnUntrustedProxy(clientIp);
    }
    const method = req.method ?? 'GET';
    const { path, search } = splitTarget(req.url ?? '/');

    if (isServicePath(path)) {
      serveDynamic(req, res, ids, clientIp, path, search, started);
      return;
    }

    if (statics === undefined) {
      next?.();
      return;
    }
    const requestId = answeredId(ids);
    const accept = headerValue(req, 'accept');
    const wantsMarkdown = prefersMarkdown(accept);
    const file = (wantsMarkdown ? statics.markdownTwin(path) : undefined) ?? statics.get(path);
    if (file === undefined) {
      // A missing `.md` URL asks for Markdown as plainly as Accept does.
      const asMarkdown = wantsMarkdown || path.endsWith('.md');
      notFoundOrRedirect(res, statics, path, search, method, { ...common, 'x-request-id': requestId }, asMarkdown);
    } else if (method === 'OPTIONS' && file.preflightHeaderList !== undefined) {
      res.writeHead(204, [...file.preflightHeaderList, 'x-request-id', requestId]);
      res.end();
    } else if (method !== 'GET' && method !== 'HEAD') {
      const allowed = file.preflightHeaderList === undefined ? 'GET, HEAD' : 'GET, HEAD, OPTIONS';
      writeApiResponse(res, methodNotAllowed(allowed), commonList, method, requestId);
    } else if (ifNoneMatchHits(headerValue(req, 'if-none-match'), file.etag)) {
      res.writeHead(304, [...file.notModifiedHeaderList, 'x-request-id', requestId]);
      res.end();
    } else {
      const variant = variantFor(file, headerValue(req, 'accept-encoding'));
      const body = method === 'HEAD' ? undefined : statics.cached(variant);
      if (body === undefined && method !== 'HEAD') {
        // Not in memory: from disk, and the access line once the answer is out.
        const logged = (status: number, aborted?: boolean) =>
          logAccess(ids, clientIp, method, path, status, started, aborted);
        sendFromDisk(res, statics, variant, requestId, ids, commonList, logged);
        return;
      }
      res.writeHead(200, [...variant.headerList, 'x-request-id', requestId]);
      res.end(body);
    }
    logAccess(ids, clientIp, method, path, res.statusCode, started);
  };
}

/**
 * The TRUST_PROXY trap, said once per server: behind a proxy left untrusted, every visitor
 * arrives from the proxy's address and shares one quota (the contact form then tells everyone
 * to wait). Without a proxy in front, a client sent the header itself and ignoring it is right.
 */
function warnUntrustedProxy(peer: string): void {
  logWarning(
    'A request came with X-Forwarded-For while TRUST_PROXY=0, so the header is ignored and every client behind ' +
      'that proxy shares its address and one quota. Set TRUST_PROXY to the number of proxies in front of the ' +
      'service: 1 behind nginx (or Cloudflare alone), 2 behind Cloudflare and nginx. With no proxy in front, ' +
      'leave it at 0.',
    { variable: 'TRUST_PROXY', peer },
  );
}
