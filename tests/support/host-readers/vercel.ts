import type { MatchedHeaders } from '../../../functions/hosts/netlify/netlify-rules.ts';

/**
 * A reader of the `vercel.json` the build writes, as Vercel documents it ("Project
 * configuration": `cleanUrls`, `trailingSlash`, `headers`, `rewrites`; "Headers": every matching
 * rule applies, and of two that set one header the later wins). A `source` is path-to-regexp:
 * `:name` is one segment, `:name*` any number of them, `(regex)` an unnamed group, `\` makes the
 * next character plain; the rest is literal and a trailing slash optional. Anything else in a
 * source is refused, so a generator that writes syntax this reader does not know fails.
 */
export interface VercelJson {
  cleanUrls?: boolean;
  trailingSlash?: boolean;
  headers?: { source: string; headers: { key: string; value: string }[] }[];
  rewrites?: { source: string; destination: string }[];
}

function sourceRegExp(source: string): { regExp: RegExp; names: string[] } {
  const names: string[] = [];
  let pattern = '';
  for (let index = 0; index < source.length;) {
    const rest = source.slice(index);
    const param = /^:([A-Za-z_]\w*)(\*)?/.exec(rest);
    if (rest.startsWith('\\')) {
      pattern += (source[index + 1] ?? '').replace(/[|\\{}()[\]^$+*?.]/g, '\\$&');
      index += 2;
    } else if (param !== null) {
      names.push(param[1] ?? '');
      pattern += param[2] === '*' ? '((?:[^/]+(?:/[^/]+)*)?)' : '([^/]+)';
      index += param[0].length;
    } else if (rest.startsWith('(')) {
      const close = rest.indexOf(')');
      if (close === -1) throw new Error(`${source}: unclosed group`);
      names.push(String(names.length));
      pattern += `(${rest.slice(1, close)})`;
      index += close + 1;
    } else if (/^[*+?{}]/.test(rest)) {
      throw new Error(`${source}: "${rest[0]}" means something to path-to-regexp; escape it`);
    } else {
      pattern += (rest[0] ?? '').replace(/[|\\{}()[\]^$+*?.]/g, '\\$&');
      index += 1;
    }
  }
  if (pattern.endsWith('/')) pattern = pattern.slice(0, -1);
  return { regExp: new RegExp(`^${pattern}/?$`, 'i'), names };
}

export function vercelHeadersFor(config: VercelJson, urlPath: string): MatchedHeaders {
  const headers: Record<string, string> = {};
  const conflicts: string[] = [];
  for (const rule of config.headers ?? []) {
    if (!sourceRegExp(rule.source).regExp.test(urlPath)) continue;
    for (const { key, value } of rule.headers) {
      const name = key.toLowerCase();
      if (name in headers && headers[name] !== value) conflicts.push(name);
      headers[name] = value;
    }
  }
  return { headers, conflicts };
}

/**
 * Where a request goes: `trailingSlash: false` redirects `/x/` to `/x` and `cleanUrls` redirects
 * `/x.html` to `/x` (308); then the filesystem (`/x` is `x.html` with cleanUrls); then the first
 * rewrite whose source matches, its parameters put into the destination.
 */
export function vercelRoute(
  config: VercelJson,
  files: ReadonlySet<string>,
  urlPath: string,
): { proxy: string } | { redirect: string; status: number } | { file: string | undefined } {
  if (config.trailingSlash === false && urlPath.length > 1 && urlPath.endsWith('/'))
    return { redirect: urlPath.replace(/\/+$/, ''), status: 308 };
  if (config.cleanUrls === true && urlPath.endsWith('.html'))
    return { redirect: urlPath.slice(0, -'.html'.length).replace(/\/index$/, '/'), status: 308 };
  const file = fileFor(config, files, urlPath);
  if (file !== undefined) return { file };
  const destination = vercelRewrite(config, urlPath);
  if (destination === undefined) return { file: undefined };
  return /^https?:\/\//.test(destination) ? { proxy: destination } : { file: fileFor(config, files, destination) };
}

/** The destination of the first rewrite whose source matches `urlPath`, its parameters put in; undefined when none does. */
export function vercelRewrite(config: VercelJson, urlPath: string): string | undefined {
  for (const rewrite of config.rewrites ?? []) {
    const { regExp, names } = sourceRegExp(rewrite.source);
    const match = regExp.exec(urlPath);
    if (match === null) continue;
    return rewrite.destination.replace(/:(\w+)\*?/g, (whole, name: string) => {
      const at = names.indexOf(name);
      return at === -1 ? whole : (match[at + 1] ?? '');
    });
  }
  return undefined;
}

function fileFor(config: VercelJson, files: ReadonlySet<string>, urlPath: string): string | undefined {
  if (files.has(urlPath) && !(config.cleanUrls === true && urlPath.endsWith('.html'))) return urlPath;
  if (config.cleanUrls !== true) return undefined;
  return [urlPath === '/' ? '/index.html' : `${urlPath}.html`, `${urlPath.replace(/\/$/, '')}/index.html`].find(
    (file) => files.has(file),
  );
}

/**
 * The files Vercel uploads from a folder with this `.vercelignore` ("Project configuration" >
 * ".vercelignore", gitignore syntax). Of that syntax only what the build writes is read: `*.ext`
 * (any file with that ending) and `/path` (that file); any other line is refused.
 */
export function vercelUploaded(files: ReadonlySet<string>, ignore: string): Set<string> {
  const lines = ignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  for (const line of lines)
    if (!/^\*\.[\w.]+$/.test(line) && !/^\/[^*?[\]!]+$/.test(line))
      throw new Error(`.vercelignore: unread line ${line}`);
  const ignored = (file: string) =>
    lines.some((line) => (line.startsWith('*') ? file.endsWith(line.slice(1)) : file === line));
  return new Set([...files].filter((file) => !ignored(file)));
}
