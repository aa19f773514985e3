// What the fast paths ask of a request before they take it: JSON-RPC messages that are plain
// objects with only the keys they know, sent as the SDK's transport accepts
// (plain-tool-call.ts, prepared-answers.ts). Anything else goes to the SDK.
import { isJsonContentType } from '@modelcontextprotocol/server';
import { headerValue, type ApiRequest } from '../http/types.ts';

/** An object literal as JSON.parse makes one: not an array, not null, no other prototype. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Whether every key of the object is one of `allowed`. */
export function hasOnly(object: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(object)) if (!allowed.has(key)) return false;
  return true;
}

/** A JSON body, and an Accept naming both answers the transport may give (JSON and an event stream). */
export function sentAsTransportAccepts(request: ApiRequest): boolean {
  if (!isJsonContentType(headerValue(request, 'content-type') ?? null)) return false;
  const accept = headerValue(request, 'accept') ?? '';
  return accept.includes('application/json') && accept.includes('text/event-stream');
}
