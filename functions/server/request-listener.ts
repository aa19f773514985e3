import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Api } from '../app.ts';
import { clientIpOf } from '../http/client-ip.ts';
import { ifNoneMatchHits } from '../http/etag.ts';
import { requestIdFor } from '../http/request-id.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { headerValue, type ApiResponse } from '../http/types.ts';
import { logError, writeLogLine } from '../log.ts';
import { splitTarget, toApiRequest } from './node-request.ts';
import { variantFor, type StaticFiles } from './static-files.ts';

export interface ListenerParts {
  api: Api;
  statics: StaticFiles;
}

const API_PREFIX = '/api/';

/**
 * The production request path: API paths go straight to the router, prerendered pages and
 * documents come from memory, and anything else is the 404 page. Every page is prerendered,
 * so Astro's request handler has nothing to render here (and, mounted, it answers 500 for
 * `/404`); the on-demand catch-all route exists only for `astro dev`.
 * Every response gets the security headers, an X-Request-Id and one access-log line.
 */
export function createRequestListener({ api, statics }: ListenerParts) {
  const { config } = api.services;
  const common = securityHeaders(config.siteUrl);

  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const requestId = requestIdFor(req.headers['x-request-id']);
    const method = req.method ?? 'GET';
    const { path, search } = splitTarget(req.url ?? '/');
    const log = () => {
      if (!config.accessLog) return;
      writeLogLine({
        time: new Date().toISOString(),
        requestId,
        method,
        path: path.slice(0, 512),
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      });
    };
    res.setHeader('x-request-id', requestId);

    if (path.startsWith(API_PREFIX) || path === '/api') {
      const clientIp = clientIpOf(req.socket.remoteAddress, req.headers['x-forwarded-for'], config.trustProxy);
      api.router
        .handle(toApiRequest(req, path, search, clientIp, requestId))
        .then((response) => writeApiResponse(res, response, common, method))
        .catch((error: unknown) => failSafe(res, requestId, error, common))
        .finally(log);
      return;
    }

    const file = statics.get(path);
    if (file !== undefined) {
      if (method !== 'GET' && method !== 'HEAD') {
        res.writeHead(405, { ...common, allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method Not Allowed\n');
      } else if (ifNoneMatchHits(headerValue(req, 'if-none-match'), file.etag)) {
        const { 'content-length': _length, 'content-type': _type, 'content-encoding': _encoding, ...headers } = file.identity.headers;
        res.writeHead(304, headers).end();
      } else {
        const variant = variantFor(file, headerValue(req, 'accept-encoding'));
        res.writeHead(200, variant.headers);
        res.end(method === 'HEAD' ? undefined : variant.body);
      }
      log();
      return;
    }

    notFoundOrRedirect(res, statics, path, search, method, common);
    log();
  };
}

function writeApiResponse(res: ServerResponse, response: ApiResponse, common: Record<string, string>, method: string): void {
  const headers: Record<string, string> = { ...common, ...response.headers };
  // The unread rest of a refused body would otherwise be parsed as the next request.
  if (response.status === 413) headers.connection = 'close';
  if (response.body !== null) headers['content-length'] = String(Buffer.byteLength(response.body));
  res.writeHead(response.status, headers);
  res.end(method === 'HEAD' ? undefined : (response.body ?? undefined));
}

/** A path with a trailing slash redirects to its clean URL; any other unknown path gets the 404 page. */
function notFoundOrRedirect(
  res: ServerResponse,
  statics: StaticFiles,
  path: string,
  search: string,
  method: string,
  common: Record<string, string>,
): void {
  const trimmed = path.replace(/\/+$/, '');
  if (path !== trimmed && trimmed !== '' && statics.get(trimmed) !== undefined && (method === 'GET' || method === 'HEAD')) {
    res.writeHead(301, { ...common, location: search ? `${trimmed}?${search}` : trimmed, 'content-length': '0' }).end();
    return;
  }
  const page = statics.notFoundPage;
  if (page === undefined) {
    res.writeHead(404, { ...common, 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n');
    return;
  }
  const { etag: _etag, 'cache-control': _cache, ...headers } = page.identity.headers;
  res.writeHead(404, { ...headers, 'cache-control': 'no-store' });
  res.end(method === 'HEAD' ? undefined : page.identity.body);
}

/** Last resort for a failure outside the router: log it, and answer 500 if nothing was sent yet. */
function failSafe(res: ServerResponse, requestId: string, error: unknown, common: Record<string, string>): void {
  logError(requestId, error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { ...common, 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ code: 'internal_error', message: 'Something went wrong on our side.', requestId }));
}
