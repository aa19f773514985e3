/**
 * A reader of Netlify's `_headers` and `_redirects`, as Netlify documents and parses them
 * ("Custom headers" > "Syntax for the _headers file"; "Redirects and rewrites" > "Syntax for the
 * _redirects file", "Rewrites and proxies", "Shadowing"). The `_headers` parsing and matching
 * follow @netlify/headers-parser (line_parser.ts, for_regexp.ts, normalize.ts) and the combination
 * of matching rules `netlify dev` (netlify/cli, src/utils/headers.ts: one object, a later rule's
 * header replacing an earlier one's); a header that two matching rules set to different values
 * is reported. The tests check the build's rules with it (tests/api/host-rules.test.ts), and
 * `npm run preview:netlify` serves the build by it (preview-server.ts).
 */
export interface NetlifyHeaderRule {
  for: string;
  forRegExp: RegExp;
  values: Record<string, string>;
}

export function parseNetlifyHeaders(text: string): NetlifyHeaderRule[] {
  const rules: NetlifyHeaderRule[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (line.startsWith('/')) {
      rules.push({ for: line, forRegExp: forRegExp(line), values: {} });
      return;
    }
    // A line without a colon (Cloudflare's `! Name`) is skipped by the parser.
    if (!line.includes(':')) return;
    const [rawName = '', ...rawValue] = line.split(':');
    const name = rawName.trim();
    const value = rawValue.join(':').trim();
    if (name === '' || value === '') throw new Error(`_headers line ${index + 1}: missing header name or value`);
    const rule = rules.at(-1);
    if (rule === undefined) throw new Error(`_headers line ${index + 1}: path should come before header "${name}"`);
    // normalize.ts: values are split at commas and joined with ", "; a repeated name within a rule joins too.
    const normalized = value.split(/\s*,\s*/g).join(', ');
    rule.values[name] = rule.values[name] === undefined ? normalized : `${rule.values[name]}, ${normalized}`;
  });
  return rules;
}

/** for_regexp.ts: per segment, `:x` is `([^/]+)`, a lone `*` is an optional `(.*)`, a `*` within a segment `(.*)` (the rest as written). */
function forRegExp(forPath: string): RegExp {
  const pattern = forPath
    .split('/')
    .map((part) => part.trimEnd())
    .filter(Boolean)
    .map((part) => {
      if (part.startsWith(':')) return '([^/]+)';
      if (part === '*') return '?(.*)';
      if (part.includes('*')) return part.replaceAll('*', '(.*)');
      return part.replace(/[|\\{}()[\]^$+*?.]/g, '\\$&').replace(/-/g, '\\x2d');
    })
    .join('/');
  return new RegExp(`^/${pattern}/?$`, 'iu');
}

export interface MatchedHeaders {
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Names whose value depends on how the host combines matching rules. */
  conflicts: string[];
}

export function netlifyHeadersFor(rules: readonly NetlifyHeaderRule[], urlPath: string): MatchedHeaders {
  const headers: Record<string, string> = {};
  const conflicts: string[] = [];
  for (const rule of rules) {
    if (!rule.forRegExp.test(urlPath)) continue;
    for (const [name, value] of Object.entries(rule.values)) {
      const key = name.toLowerCase();
      // A later rule replaces the value: harmless only when it is the same.
      if (key in headers && headers[key] !== value) conflicts.push(key);
      headers[key] = value;
    }
  }
  return { headers, conflicts };
}

/** The file Netlify serves for a path: the file itself, else `x.html` or `x/index.html` ("pretty URLs"). */
function netlifyFileFor(files: ReadonlySet<string>, urlPath: string): string | undefined {
  const trimmed = urlPath.length > 1 ? urlPath.replace(/\/$/, '') : urlPath;
  return [urlPath, `${trimmed}.html`, `${trimmed === '/' ? '' : trimmed}/index.html`].find((file) => files.has(file));
}

export interface NetlifyRedirect {
  from: string;
  to: string;
  status: number;
  force: boolean;
}

/** `from to [status][!]` a line; `#` comments. */
export function parseNetlifyRedirects(text: string): NetlifyRedirect[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line, index) => {
      const [from, to, code = '301', ...rest] = line.split(/\s+/);
      const status = Number(code.replace(/!$/, ''));
      if (from === undefined || to === undefined || rest.length > 0 || !Number.isInteger(status))
        throw new Error(`_redirects rule ${index + 1} is not "from to [status][!]": ${line}`);
      return { from, to, status, force: code.endsWith('!') };
    });
}

/**
 * What Netlify does with a request: the first rule whose `from` matches (a trailing `*` is the
 * splat, `:name` a segment; a trailing slash does not matter), unless a file exists at the path and
 * the rule is not forced ("Shadowing"); a 200 to an absolute URL proxies there.
 */
export function netlifyRoute(
  rules: readonly NetlifyRedirect[],
  files: ReadonlySet<string>,
  urlPath: string,
): { proxy: string } | { redirect: string; status: number } | { file: string | undefined } {
  const file = netlifyFileFor(files, urlPath);
  for (const rule of rules) {
    const params = matchRedirect(rule.from, urlPath);
    if (params === undefined || (file !== undefined && !rule.force)) continue;
    const to = rule.to.replace(/:(\w+)/g, (_, name: string) => params[name] ?? `:${name}`);
    if (rule.status === 200 && /^https?:\/\//.test(to)) return { proxy: to };
    if (rule.status >= 300) return { redirect: to, status: rule.status };
    return { file: netlifyFileFor(files, to) };
  }
  return { file };
}

function matchRedirect(from: string, urlPath: string): Record<string, string> | undefined {
  const names: string[] = [];
  const source = from
    .replace(/\/$/, '')
    .split('/')
    .map((part) => {
      if (part === '*') {
        names.push('splat');
        return '?(.*)';
      }
      if (part.startsWith(':')) {
        names.push(part.slice(1));
        return '([^/]+)';
      }
      return part.replace(/[|\\{}()[\]^$+*?.]/g, '\\$&');
    })
    .join('/');
  const match = new RegExp(`^${source}/?$`, 'i').exec(urlPath);
  if (match === null) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, match[index + 1] ?? '']));
}
