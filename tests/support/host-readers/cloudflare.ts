import type { MatchedHeaders } from '../../../functions/hosts/netlify/netlify-rules.ts';

/**
 * A reader of Cloudflare Pages' `_headers` and `_redirects` as its documentation states them
 * ("Headers": "Attach a header", "Detach a header", "Match a path" with "Splats" and
 * "Placeholders"; "Redirects": "Per line", "Per file", "Proxying"; "Serving Pages": "Route
 * matching", "Headers"). It refuses what Cloudflare refuses: more than 100 header rules, a line
 * over 2,000 characters, two splats in a path, more than 2,000 static and 100 dynamic redirects.
 */
const LIMITS = { headerRules: 100, lineChars: 2000, staticRedirects: 2000, dynamicRedirects: 100 } as const;

/** "Serving Pages" > "Headers": always added, and Cache-Control on a cacheable asset; a rule's header of the same name replaces them. */
export const DEFAULT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'cache-control': 'public, max-age=0, must-revalidate',
};

export interface CloudflareHeaderRule {
  path: string;
  regExp: RegExp;
  attach: [string, string][];
  detach: string[];
}

export function parseCloudflareHeaders(text: string): CloudflareHeaderRule[] {
  const rules: CloudflareHeaderRule[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.length > LIMITS.lineChars)
      throw new Error(`_headers line ${index + 1} is over ${LIMITS.lineChars} characters`);
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    if (!/^\s/.test(line)) {
      rules.push({ path: trimmed, regExp: pathRegExp(trimmed), attach: [], detach: [] });
      return;
    }
    const rule = rules.at(-1);
    if (rule === undefined) throw new Error(`_headers line ${index + 1}: a header before any path`);
    if (trimmed.startsWith('!')) {
      rule.detach.push(trimmed.slice(1).trim().toLowerCase());
      return;
    }
    const colon = trimmed.indexOf(':');
    if (colon <= 0) throw new Error(`_headers line ${index + 1} is not "[name]: [value]"`);
    rule.attach.push([trimmed.slice(0, colon).trim().toLowerCase(), trimmed.slice(colon + 1).trim()]);
  });
  if (rules.length > LIMITS.headerRules)
    throw new Error(`${rules.length} header rules; Cloudflare Pages takes ${LIMITS.headerRules}`);
  return rules;
}

/** A splat greedily matches anything (one a path); `:name` anything but `/`; the rest as written. */
function pathRegExp(path: string): RegExp {
  if (path.split('*').length > 2) throw new Error(`${path}: only one splat is allowed`);
  const source = path
    .split(/(\*|:[A-Za-z]\w*)/)
    .map((part) => {
      if (part === '*') return '(.*)';
      if (/^:[A-Za-z]\w*$/.test(part)) return '([^/]+)';
      return part.replace(/[|\\{}()[\]^$+*?.]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * Every matching rule's headers (a name set twice is joined with a comma), less what a matching
 * rule detaches, over the defaults. A name that two rules attach is reported as a conflict too.
 * Content-Type is the host's unless a rule sets it: left out here.
 */
export function cloudflareHeadersFor(rules: readonly CloudflareHeaderRule[], urlPath: string): MatchedHeaders {
  const attached: Record<string, string> = {};
  const conflicts: string[] = [];
  const detached = new Set<string>();
  for (const rule of rules) {
    if (!rule.regExp.test(urlPath)) continue;
    for (const [name, value] of rule.attach) {
      if (name in attached) conflicts.push(name);
      attached[name] = name in attached ? `${attached[name]}, ${value}` : value;
    }
    for (const name of rule.detach) detached.add(name);
  }
  const headers = { ...DEFAULT_HEADERS, ...attached };
  for (const name of detached) delete headers[name];
  return { headers, conflicts };
}

/** "Route matching": `/x` serves `x.html`, `/x/` serves `x/index.html`, `/` serves `index.html`; any other file at its path. */
export function cloudflareFileFor(files: ReadonlySet<string>, urlPath: string): string | undefined {
  if (files.has(urlPath) && !urlPath.endsWith('.html')) return urlPath;
  const candidates = urlPath.endsWith('/') ? [`${urlPath}index.html`] : [`${urlPath}.html`];
  return candidates.find((file) => files.has(file));
}

export interface CloudflareRedirect {
  source: string;
  destination: string;
  code: number;
}

/** "Per line": `[source] [destination] [code?]`, any other line ignored; proxying (200) only to relative URLs. */
export function parseCloudflareRedirects(text: string): CloudflareRedirect[] {
  const rules: CloudflareRedirect[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [source, destination, code = '302', ...rest] = trimmed.split(/\s+/);
    if (source === undefined || destination === undefined || rest.length > 0 || !/^\d{3}$/.test(code)) continue;
    if (code === '200' && /^https?:/.test(destination)) continue;
    rules.push({ source, destination, code: Number(code) });
  }
  const dynamic = rules.filter((rule) => /[*:]/.test(rule.source)).length;
  if (dynamic > LIMITS.dynamicRedirects || rules.length - dynamic > LIMITS.staticRedirects)
    throw new Error(`${rules.length - dynamic} static and ${dynamic} dynamic redirects: over Cloudflare Pages' limits`);
  return rules;
}
