/**
 * Most levels of arrays and objects a JSON body or an MCP tool argument may nest. No operation
 * reads more than four; the bound keeps code that walks a value recursively (JSON.stringify,
 * a canonical form for a fingerprint) from running out of stack on one that nests thousands deep.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `limit` levels (`[]` is one
 * level, `[[]]` two). Walks without recursion, so any depth is measured, and stops at the first
 * value past the limit.
 */
export function nestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > limit) return true;
    for (const child of Array.isArray(next.value) ? next.value : Object.values(next.value))
      if (typeof child === 'object' && child !== null) pending.push({ value: child, depth });
  }
  return false;
}
