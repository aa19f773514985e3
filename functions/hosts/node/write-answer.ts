import type { ServerResponse } from 'node:http';
import { lastResortAnswer, serviceHeaderList } from '../../app/service-exchange.ts';
import { answeredId, type RequestIds } from '../../http/request-id.ts';
import type { ApiResponse } from '../../http/types.ts';
import { logError } from '../../log/log.ts';

/**
 * Writes a router or page response. Headers go to node as one flat [name, value, ...] list: merging
 * header objects per request (spreads over a dozen keys) measured at a third of the request's
 * CPU time, while the list costs little more than the writes themselves.
 */
export function writeApiResponse(
  res: ServerResponse,
  response: ApiResponse,
  commonList: readonly string[],
  method: string,
  requestId: string,
  contentLength?: string,
): void {
  res.writeHead(response.status, answerHeaderList(response, commonList, requestId, contentLength));
  res.end(method === 'HEAD' ? undefined : (response.body ?? undefined));
}

/**
 * The most of a refused body (413) that is read and dropped so the connection stays open. Closing
 * a connection with bytes still unread makes the kernel reset it, and a proxy still sending the
 * body (nginx) then answers 502 instead of passing our 413 on; every body such a proxy lets
 * through (the generated nginx site allows 64 KiB, functions/hosts/nginx/site.ts) is well within this.
 */
const DROPPED_BODY_MAX_BYTES = 256 * 1024;

/**
 * The headers a router or page answer goes out with, as a flat [name, value, ...] list: the
 * common ones first (a later entry of the same name wins), the request id, and the length.
 * `contentLength` is the request's, which decides what happens to a refused body.
 */
export function answerHeaderList(
  response: ApiResponse,
  commonList: readonly string[],
  requestId: string,
  contentLength?: string,
): string[] {
  const headers = serviceHeaderList(response, commonList, requestId);
  // The unread rest of a refused body: node reads and drops it after the answer when its declared
  // length is small, and the connection serves the next request; a larger or undeclared one
  // would otherwise be read as the next request, so the connection closes.
  if (response.status === 413 && !(Number(contentLength) <= DROPPED_BODY_MAX_BYTES))
    headers.push('connection', 'close');
  if (response.body !== null)
    headers.push('content-length', String(response.bodyBytes ?? Buffer.byteLength(response.body)));
  return headers;
}

/** Last resort for a failure outside the router: log it with both ids, and answer 500 if nothing was sent yet. */
export function failSafe(res: ServerResponse, ids: RequestIds, error: unknown, commonList: readonly string[]): void {
  logError(ids.requestId, error, ids.clientRequestId === undefined ? {} : { clientRequestId: ids.clientRequestId });
  const requestId = answeredId(ids);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  writeApiResponse(res, lastResortAnswer(requestId), commonList, 'GET', requestId);
}
