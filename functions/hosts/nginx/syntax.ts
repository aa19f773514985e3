/** nginx's configuration syntax, as the generated site writes it: strings, map entries, indentation. */

/** The site's variables are named with this prefix, so that they meet no other site's in the same `http` block. */
export const PREFIX = 'portfolio';

/**
 * nginx's string syntax: quoted, and never a `$` (it would read a variable; the values are
 * constants) or a backslash (an escape). A value holding double quotes is single-quoted.
 */
export function quote(value: string): string {
  if (/[$\\\n]/.test(value)) throw new Error(`No nginx string for ${JSON.stringify(value)}`);
  if (!value.includes('"')) return `"${value}"`;
  if (value.includes("'")) throw new Error(`No nginx string for ${JSON.stringify(value)}`);
  return `'${value}'`;
}

/**
 * A map's string entries. nginx matches them ignoring case (ngx_http_map_module, "map": "Strings
 * are matched ignoring the case") and refuses two that differ only in case, so such keys share one
 * entry: that of the key already in lower case, which must answer as the others would
 * (`sameAnswer`), or else comes first. /AGENTS.md is so served by the /agents.md entry (the same
 * file, the same headers); a path in any other case is refused before the maps ($portfolio_served).
 */
export function mapEntries(pairs: Iterable<readonly [string, string]>, sameAnswer = true): string[] {
  const byKey = new Map<string, readonly [string, string]>();
  const lowerFirst = [...pairs].sort(([a], [b]) => Number(a !== a.toLowerCase()) - Number(b !== b.toLowerCase()));
  for (const [key, value] of lowerFirst) {
    const known = byKey.get(key.toLowerCase());
    if (known === undefined) byKey.set(key.toLowerCase(), [key, value]);
    else if (sameAnswer && known[1] !== value)
      throw new Error(`nginx cannot tell ${known[0]} from ${key}, which answer differently`);
  }
  return [...byKey.values()].map(([key, value]) => `${quote(key)} ${quote(value)};`);
}

/**
 * Entries that give each path itself, whatever its case: a string where no other path differs
 * from it only in case, else a case-sensitive regular expression (`~`) for each of those paths.
 */
export function exactCaseEntries(paths: readonly string[]): string[] {
  const byLowerCase = Map.groupBy(paths, (urlPath) => urlPath.toLowerCase());
  return [...byLowerCase.values()].flatMap((group) =>
    group.length === 1
      ? [`${quote(group[0]!)} ${quote(group[0]!)};`]
      : group.map((urlPath) => `"~^${regexLiteral(urlPath)}$" ${quote(urlPath)};`),
  );
}

/** A path as a regular expression matching only itself, for a quoted map key (no `"` or `\\` in a path). */
function regexLiteral(urlPath: string): string {
  if (/["\\\s]/.test(urlPath)) throw new Error(`No nginx map key for ${JSON.stringify(urlPath)}`);
  return urlPath.replace(/[.*+?^${}()|[\]]/g, '\\$&');
}

export function indent(lines: readonly string[], depth = 1): string[] {
  return lines.map((line) => (line === '' ? '' : `${'    '.repeat(depth)}${line}`));
}

/** A header's name as part of a variable's: `access-control-allow-origin` -> `access_control_allow_origin`. */
export function variableFor(header: string): string {
  return `$${PREFIX}_${header.replace(/-/g, '_')}`;
}
