/**
 * Where a page's Markdown twin lives: `/` at `/index.md`, any other clean URL at the same path
 * plus `.md`; a fragment stays on the twin (`/developers#search` -> `/developers.md#search`),
 * since the twin carries the same anchors. The build writes `x.md` beside `x.html`, so the
 * production server finds the twins by file name (functions/hosts/node/static-files.ts) and pages
 * point to them with this rule.
 */
export function markdownTwinPath(pageUrl: string): string {
  const hash = pageUrl.indexOf('#');
  const path = hash === -1 ? pageUrl : pageUrl.slice(0, hash);
  const fragment = hash === -1 ? '' : pageUrl.slice(hash);
  return `${path === '/' ? '/index' : path.replace(/\/$/, '')}.md${fragment}`;
}

/** The RFC 8288 Link value that advertises a page's Markdown twin (an absolute URL). */
export function markdownAlternateLink(twinUrl: string): string {
  return `<${twinUrl}>; rel="alternate"; type="text/markdown"`;
}

/** Adds a link to a Link header value that may already hold others (RFC 9110 section 5.3: one list). */
export function appendLink(existing: string | undefined, link: string): string {
  return existing === undefined || existing === '' ? link : `${existing}, ${link}`;
}

export const MARKDOWN = 'text/markdown; charset=utf-8';
