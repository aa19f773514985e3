// What the fast paths ask of a parsed JSON-RPC message before they take it: plain objects with
// only the keys they know (plain-tool-call.ts, prepared-answers.ts). Anything else goes to the SDK.

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
