/**
 * Most levels of arrays and objects a JSON body or an MCP tool argument may nest. No operation
 * reads more than four; the bound keeps code that walks a value recursively (JSON.stringify,
 * a canonical form for a fingerprint) from running out of stack on one that nests thousands deep.
 */
export const MAX_JSON_DEPTH = 32;

const [QUOTE, BACKSLASH, OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [...'"\\[]{}'].map((char) =>
  char.charCodeAt(0),
) as [number, number, number, number, number, number];

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `limit` levels (`[]` is one
 * level, `[[]]` two). Walks without recursion, so any depth is measured, and stops at the first
 * value past the limit.
 */
export function nestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  for (let item = values.pop(); item !== undefined; item = values.pop()) {
    const depth = depths.pop()! + 1;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    // for...in rather than Object.values: no array of a wide object's members is made.
    for (const key in item) {
      const child = (item as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(depth);
      }
    }
  }
  return false;
}

/**
 * The same for JSON text already known to be valid, read character by character: several times
 * cheaper than walking the parsed value, which matters for a body of thousands of members.
 */
export function textNestsDeeperThan(json: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const char = json.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === OPEN_ARRAY || char === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (char === CLOSE_ARRAY || char === CLOSE_OBJECT) depth--;
  }
  return false;
}
