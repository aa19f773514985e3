import { markdownTwinPath } from './markdown-twin.ts';

/** Fenced code blocks, whose text is an example and stays as written. */
const FENCE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm;

/**
 * A Markdown document's site-relative links (`](/auth)`, `](#errors)`) made absolute, since a twin
 * is read away from the site; a link to a page (a path without a file extension) leads to that
 * page's Markdown twin, and a bare fragment to the same anchor in `selfPath`'s twin. Text inside
 * fenced code blocks is left alone.
 */
export function absoluteMarkdownLinks(markdown: string, siteUrl: string, selfPath: string): string {
  const rewrite = (text: string) =>
    text.replace(/\]\(((?:\/|#)[^)\s]*)\)/g, (_link, target: string) => {
      const full = target.startsWith('#') ? `${selfPath}${target}` : target;
      return `](${siteUrl}${isPage(full) ? markdownTwinPath(full) : full})`;
    });
  let result = '';
  let last = 0;
  for (const fence of markdown.matchAll(FENCE)) {
    result += rewrite(markdown.slice(last, fence.index)) + fence[0];
    last = fence.index + fence[0].length;
  }
  return result + rewrite(markdown.slice(last));
}

/** A page for people has no file extension in its last path segment (`/developers/cli`, `/`). */
function isPage(url: string): boolean {
  const path = url.replace(/[?#].*$/, '');
  return !/\.[a-z0-9]+$/i.test(path.slice(path.lastIndexOf('/') + 1));
}
