/**
 * A path pattern every file-based host can say: one exact path, or the paths under `dir` that
 * end with `suffix` (`/_astro/` + `` = `/_astro/*`, `/stack/` + `.md` = `/stack/*.md`,
 * `/` + `` = every path). Placeholders and several wildcards are left out: their meaning differs
 * between hosts (see each host's file writer).
 */
export type PathPattern = { exact: string } | { dir: string; suffix: string };

/**
 * Paths that something else answers on the same host (the service's, proxied), and the headers
 * it sends on every answer itself: a rule may reach those paths only with these.
 */
export interface AnsweredElsewhere {
  paths: readonly string[];
  headers: Readonly<Record<string, string>>;
}

/** Headers (lower-case names) a host attaches to the paths a pattern matches. */
export interface HeaderRule {
  pattern: PathPattern;
  headers: Readonly<Record<string, string>>;
}

function patternMatches(pattern: PathPattern, urlPath: string): boolean {
  if ('exact' in pattern) return urlPath === pattern.exact;
  return (
    urlPath.startsWith(pattern.dir) &&
    urlPath.endsWith(pattern.suffix) &&
    urlPath.length >= pattern.dir.length + pattern.suffix.length
  );
}

/**
 * Rules that give every served path exactly its headers, where no two rules that match one served
 * path set the same header. Hosts disagree on what happens then (Cloudflare Pages joins the values
 * with a comma; `netlify dev` keeps the last rule's), so the rules never rely on it and mean the
 * same on every host. For each header value, a greedy search takes the widest patterns (a folder,
 * with or without an extension) that match only paths with that value, largest first, and an
 * exact rule for each path left; rules with the same pattern are then one rule. A header every
 * path shares (the security headers) lands in one `/*` rule; it reaches the paths answered
 * elsewhere too, which is why only what those answers carry anyway may go there.
 */
export function headerRules(
  paths: ReadonlyMap<string, Readonly<Record<string, string>>>,
  elsewhere: AnsweredElsewhere = { paths: [], headers: {} },
): HeaderRule[] {
  const all = [...paths.keys()];
  const byValue = new Map<string, { name: string; value: string; members: Set<string> }>();
  for (const [urlPath, headers] of paths) {
    for (const [name, value] of Object.entries(headers)) {
      const key = JSON.stringify([name, value]);
      const entry = byValue.get(key) ?? { name, value, members: new Set<string>() };
      entry.members.add(urlPath);
      byValue.set(key, entry);
    }
  }
  const rules = new Map<string, HeaderRule & { headers: Record<string, string> }>();
  const attach = (pattern: PathPattern, name: string, value: string) => {
    const key = JSON.stringify(pattern);
    const rule = rules.get(key) ?? { pattern, headers: {} };
    rule.headers[name] = value;
    rules.set(key, rule);
  };
  for (const { name, value, members } of [...byValue.values()].sort((a, b) => b.members.size - a.members.size)) {
    const left = new Set(members);
    const avoid = elsewhere.headers[name] === value ? [] : elsewhere.paths;
    for (;;) {
      const best = widestPattern(left, all, avoid);
      if (best === undefined) break;
      attach(best.pattern, name, value);
      for (const urlPath of best.matched) left.delete(urlPath);
    }
    for (const urlPath of [...left].sort()) attach({ exact: urlPath }, name, value);
  }
  return [...rules.values()].sort((a, b) => patternOrder(a.pattern) - patternOrder(b.pattern));
}

/** Wider patterns first, as people write these files (the order changes nothing: no two rules overlap in a header). */
function patternOrder(pattern: PathPattern): number {
  return 'exact' in pattern ? 2 : pattern.dir === '/' && pattern.suffix === '' ? 0 : 1;
}

/**
 * The candidate pattern (a folder of a member, with or without the member's extension) that
 * matches the most of `left` and no other served path, if one matches two or more.
 */
function widestPattern(
  left: ReadonlySet<string>,
  all: readonly string[],
  elsewhere: readonly string[],
): { pattern: PathPattern; matched: string[] } | undefined {
  let best: { pattern: PathPattern; matched: string[] } | undefined;
  const tried = new Set<string>();
  for (const urlPath of left) {
    for (const pattern of candidatePatterns(urlPath)) {
      const key = JSON.stringify(pattern);
      if (tried.has(key)) continue;
      tried.add(key);
      const matched = all.filter((served) => patternMatches(pattern, served));
      const valid =
        matched.length >= 2 &&
        matched.every((served) => left.has(served)) &&
        !hostsDisagree(pattern, all) &&
        !matchesAny(pattern, elsewhere);
      if (!valid) continue;
      if (best === undefined || matched.length > best.matched.length) best = { pattern, matched };
    }
  }
  return best;
}

/**
 * Whether some served path is matched by the pattern as Netlify reads it but not as written.
 * @netlify/headers-parser (for_regexp.ts) makes the slash before a lone `*` optional
 * (`^/dir/?(.*)/?$`, which matches `/dir` and `/dir.md` too), leaves the rest of a segment with a
 * `*` unescaped (`/*.js` matches `/stack/node-js`), ignores case and allows a trailing slash.
 * Cloudflare Pages reads a pattern as written. Such a pattern is not used.
 */
function hostsDisagree(pattern: PathPattern, all: readonly string[]): boolean {
  if ('exact' in pattern || (pattern.dir === '/' && pattern.suffix === '')) return false;
  const dir = pattern.dir.slice(0, -1).replace(/[|\\{}()[\]^$+*?.]/g, '\\$&');
  const netlify = new RegExp(`^${dir}${pattern.suffix === '' ? '/?(.*)' : `/(.*)${pattern.suffix}`}/?$`, 'iu');
  return all.some((served) => netlify.test(served) !== patternMatches(pattern, served));
}

/**
 * Whether a pattern reaches a path that something else answers (the service's, proxied): Vercel
 * adds its headers to a rewritten answer too, and the MCP endpoint `/mcp/docs` must not get the
 * type of the server cards beside it under `/mcp/*`.
 */
function matchesAny(pattern: PathPattern, elsewhere: readonly string[]): boolean {
  return elsewhere.some((urlPath) => patternMatches(pattern, urlPath) || hostsDisagree(pattern, [urlPath]));
}

function candidatePatterns(urlPath: string): PathPattern[] {
  const segments = urlPath.split('/').slice(1, -1);
  const name = urlPath.slice(urlPath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const suffixes = dot > 0 ? ['', name.slice(dot)] : [''];
  const dirs = segments.map((_, index) => `/${segments.slice(0, index + 1).join('/')}/`);
  return ['/', ...dirs].flatMap((dir) => suffixes.map((suffix) => ({ dir, suffix })));
}
