import type { Config } from '../config/env.ts';
import { RequestAborted } from '../http/request-aborted.ts';
import { answeredId, type RequestIds } from '../http/request-id.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import { logError, writeAccessLine } from '../log/log.ts';
import type { Eventually } from '../limits/rate-limiter.ts';
import type { Handle } from './handle.ts';

/**
 * What every host does around the service's one entry, whatever carries the request: the node
 * listener (functions/hosts/node/request-listener.ts) and the Web-standard fetch handler
 * (functions/hosts/fetch/fetch-handler.ts) both call these, so the answer to a crash, the
 * headers every answer carries and the access log are one implementation.
 */

/** The answer to a failure outside the router: the Error shape, with nothing of the failure in it. */
export function lastResortAnswer(requestId: string): ApiResponse {
  return {
    status: 500,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ code: 'internal_error', message: 'Something went wrong on our side.', requestId }),
  };
}

/**
 * Runs the service's entry for one request, for the fetch handler. (The node listener calls the
 * entry itself and ends a failure in its failSafe, which answers the same, without the promise
 * this adds per request.) Whatever it throws or rejects with ends here (logged
 * with both ids, answered as the documented 500) except RequestAborted: the client is gone, and
 * what that means (no answer, a 408 or 499 in the log) is the host's to say. The answer comes as
 * it is when the entry answered at once (see Handle), and a RequestAborted is then thrown.
 */
export function callService(handle: Handle, request: ApiRequest, ids: RequestIds): Eventually<ApiResponse> {
  let answered: Eventually<ApiResponse>;
  try {
    answered = handle(request);
  } catch (error) {
    return answerFailure(error, ids);
  }
  return answered instanceof Promise ? answered.catch((error: unknown) => answerFailure(error, ids)) : answered;
}

function answerFailure(error: unknown, ids: RequestIds): ApiResponse {
  if (error instanceof RequestAborted) throw error;
  logError(ids.requestId, error, ids.clientRequestId === undefined ? {} : { clientRequestId: ids.clientRequestId });
  return lastResortAnswer(answeredId(ids));
}

/**
 * The headers of a service answer as a flat [name, value, ...] list: the common ones first (the
 * security headers; a later entry of the same name wins), the answer's own, then the request id
 * unless the answer set one.
 */
export function serviceHeaderList(response: ApiResponse, commonList: readonly string[], requestId: string): string[] {
  const headers = commonList.slice();
  for (const name in response.headers) headers.push(name, response.headers[name] as string);
  if (response.headers['x-request-id'] === undefined) headers.push('x-request-id', requestId);
  return headers;
}

/** One access-log line per request (when ACCESS_LOG is on), whichever host answered it. */
export type AccessLog = (
  ids: RequestIds,
  clientIp: string,
  method: string,
  path: string,
  status: number,
  started: number,
  aborted?: boolean,
) => void;

export function accessLogFor(config: Pick<Config, 'accessLog'>): AccessLog {
  return (ids, clientIp, method, path, status, started, aborted = false) => {
    if (!config.accessLog) return;
    writeAccessLine({
      requestId: ids.requestId,
      clientRequestId: ids.clientRequestId,
      clientIp,
      method,
      path: path.length > 512 ? path.slice(0, 512) : path,
      status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      aborted,
    });
  };
}
