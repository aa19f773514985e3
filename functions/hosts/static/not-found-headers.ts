/**
 * The headers of a 404 answer made of the not-found page or its Markdown twin: the headers every
 * answer carries (`common`), the page's own type and Link (to its twin), Vary: Accept when the
 * page has a twin to choose, and no caching, since the page stands for whatever is missing at
 * that path. The Node listener (../node/request-listener.ts) and the nginx site (../nginx/site.ts) send
 * these; the rest of the page's headers (CORS on a Markdown document, say) are not sent.
 */
export function notFoundHeaders(
  common: Readonly<Record<string, string>>,
  page: Readonly<Record<string, string>>,
  hasMarkdownTwin: boolean,
): Record<string, string> {
  const { link } = page;
  return {
    ...common,
    ...(link === undefined ? {} : { link }),
    ...(hasMarkdownTwin ? { vary: 'Accept' } : {}),
    'content-type': page['content-type'] ?? 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
  };
}
