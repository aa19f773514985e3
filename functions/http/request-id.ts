import { randomUUID } from 'node:crypto';

/** An incoming X-Request-Id is kept only when it is short and made of safe characters. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The request id for a request: the caller's well-formed X-Request-Id, or a new UUID. */
export function requestIdFor(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value !== undefined && WELL_FORMED_ID.test(value) ? value : randomUUID();
}
