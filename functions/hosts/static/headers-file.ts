import { displayName } from './header-names.ts';
import type { HeaderRule, PathPattern } from './header-rules.ts';

/**
 * The most header rules a Cloudflare Pages project may have (Cloudflare Pages docs, "Headers" >
 * "Attach a header": "A project is limited to 100 header rules").
 */
export const CLOUDFLARE_MAX_HEADER_RULES = 100;

/**
 * The `_headers` file that Netlify ("Custom headers" > "Syntax for the _headers file") and
 * Cloudflare Pages ("Headers" > "Attach a header") both read from the published folder: a path
 * line, then its headers indented, one `Name: value` a line. Only what both read alike is
 * written: no `! Name` (Cloudflare's "Detach a header"), no placeholders, one `*` at most, and no
 * two rules that match one served path set the same header (./header-rules.ts).
 */
export function headersFile(rules: readonly HeaderRule[]): string {
  const blocks = rules.map(
    (rule) =>
      `${patternText(rule.pattern)}\n${Object.entries(rule.headers)
        .map(([name, value]) => `  ${displayName(name)}: ${value}`)
        .join('\n')}`,
  );
  const head = [
    '# Made by npm run build from the header table (functions/hosts/static/built-file-headers.ts); do not edit.',
    '# Syntax: Netlify docs, "Custom headers" > "Syntax for the _headers file";',
    '# Cloudflare Pages docs, "Headers" > "Attach a header" and "Match a path" (at most 100 rules).',
    '# No two rules that match one served path set the same header: Cloudflare would join the values.',
    `# ${rules.length} rules.`,
  ];
  return `${head.join('\n')}\n\n${blocks.join('\n\n')}\n`;
}

function patternText(pattern: PathPattern): string {
  return 'exact' in pattern ? pattern.exact : `${pattern.dir}*${pattern.suffix}`;
}
