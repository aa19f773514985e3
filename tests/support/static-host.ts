import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { mediaTypeFor } from '../../functions/hosts/static/media-types.ts';

/** A static host serving a build's client folder, as a test runs it. */
export interface StaticHost {
  baseUrl: string;
  /** Every path asked for, in order (to show that no dynamic path reached this host). */
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

/**
 * The least a static host does: files of `root` by path, a clean URL answered by `<path>.html`
 * (the build's format), `index.html` for `/`, 404 for the rest, and every method but GET and HEAD
 * refused with 405, as static hosts refuse a form post. `headers` go on every answer (the
 * security headers a host's configuration adds). No Node service stands behind it.
 */
export function startStaticHost(root: string, port: number, headers: Record<string, string>): Promise<StaticHost> {
  const requests: StaticHost['requests'] = [];
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname);
    requests.push({ method: request.method ?? '', path: pathname });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', ...headers }).end();
      return;
    }
    const candidates = pathname === '/' ? ['/index.html'] : [pathname, `${pathname}.html`];
    for (const candidate of candidates) {
      const file = path.join(root, path.normalize(candidate));
      if (!file.startsWith(root) || !isFile(file)) continue;
      const body = readFileSync(file);
      response.writeHead(200, { 'content-type': mediaTypeFor(candidate), ...headers });
      response.end(request.method === 'HEAD' ? undefined : body);
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end('Not Found\n');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({
        baseUrl: `http://127.0.0.1:${port}`,
        requests,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    );
  });
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
