import { randomBytes } from 'node:crypto';

/** An incoming X-Request-Id is kept only when it is short and made of safe characters. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The ids of one request. */
export interface RequestIds {
  /** Ours, new for every request and never chosen by the caller: the id operators search the log by. */
  requestId: string;
  /** The caller's own X-Request-Id when it is well formed; logged beside ours, never instead of it. */
  clientRequestId: string | undefined;
}

/**
 * This process's part of every id it makes: 96 random bits, made on the first request (a worker
 * runtime refuses random numbers at module scope). Ids are this prefix and a counter: unique within
 * the process by the counter, and across instances and restarts because two processes draw the
 * same prefix with odds of about n² / 2⁹⁷ (one in 10¹⁸ for a million process starts). A random
 * UUID per request cost more than the rest of the id's bookkeeping, and a counter tells nothing
 * but how many requests this process has answered.
 */
let prefix = '';
let issued = 0;

/** What our ids look like (a caller's echoed id can look like anything WELL_FORMED_ID allows). */
export const OUR_REQUEST_ID = /^[A-Za-z0-9_-]{16}-[0-9a-z]+$/;

/** Ours for a new request: `<16 base64url characters>-<counter in base 36>`, such as `Qx3…-1a`. */
export function newRequestId(): string {
  if (prefix === '') prefix = `${randomBytes(12).toString('base64url')}-`;
  issued += 1;
  return prefix + issued.toString(36);
}

export function requestIdsFor(incoming: string | string[] | undefined): RequestIds {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return {
    requestId: newRequestId(),
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
