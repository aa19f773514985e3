import type { ServerResponse } from 'node:http';
import type { HeaderMap } from '../../http/types.ts';
import { notFoundHeaders } from '../static/not-found-headers.ts';
import type { StaticFiles } from './static-files.ts';

const TEXT = 'text/plain; charset=utf-8';

/**
 * A path with a trailing slash redirects to its clean URL; any other unknown path gets the 404
 * page, or its Markdown twin when the request asked for Markdown.
 */
export function notFoundOrRedirect(
  res: ServerResponse,
  statics: StaticFiles,
  path: string,
  search: string,
  method: string,
  headers: HeaderMap,
  asMarkdown: boolean,
): void {
  const trimmed = path.replace(/\/+$/, '');
  if (
    path !== trimmed &&
    trimmed !== '' &&
    statics.get(trimmed) !== undefined &&
    (method === 'GET' || method === 'HEAD')
  ) {
    res
      .writeHead(301, { ...headers, location: search ? `${trimmed}?${search}` : trimmed, 'content-length': '0' })
      .end();
    return;
  }
  const page = (asMarkdown ? statics.notFoundMarkdown : undefined) ?? statics.notFoundPage;
  if (page === undefined) {
    res.writeHead(404, { ...headers, 'content-type': TEXT }).end('Not Found\n');
    return;
  }
  res.writeHead(404, {
    ...notFoundHeaders(headers, page.headers, statics.notFoundMarkdown !== undefined),
    'content-length': String(page.body.length),
  });
  res.end(method === 'HEAD' ? undefined : page.body);
}
