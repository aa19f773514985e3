import { randomUUID } from 'node:crypto';

/** An incoming X-Request-Id is kept only when it is short and made of safe characters. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The ids of one request. */
export interface RequestIds {
  /** Ours, new for every request and never chosen by the caller: the id operators search the log by. */
  requestId: string;
  /** The caller's own X-Request-Id when it is well formed; logged beside ours, never instead of it. */
  clientRequestId: string | undefined;
}

export function requestIdsFor(incoming: string | string[] | undefined): RequestIds {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return {
    requestId: randomUUID(),
    clientRequestId: value !== undefined && WELL_FORMED_ID.test(value) ? value : undefined,
  };
}

/**
 * The id a response carries, as X-Request-Id and as `requestId` in error bodies: the caller's
 * own when it sent one, so it can match the answer to its request, else ours. Both are in the
 * log line of the request, so either finds it.
 */
export function answeredId(ids: RequestIds): string {
  return ids.clientRequestId ?? ids.requestId;
}
