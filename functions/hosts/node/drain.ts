import type { Server } from 'node:http';

/**
 * Stops a server the way a stopping service should let go of its keep-alive connections: without
 * cutting one a client is about to use. `done` is called once every connection has ended.
 *
 * Closing an idle keep-alive connection races with the client sending its next request on it:
 * the request is lost, and a proxy retries only idempotent ones (nginx's proxy_next_upstream
 * never passes a POST on), so a contact post through nginx got 502 during a restart. So from the
 * start of a drain every answer says `Connection: close` (RFC 9112 section 9.6) and its
 * connection ends after it, which no client can race. Idle connections are left to whoever holds
 * them behind a trusted proxy: nginx closes its own after `keepalive_timeout` (4 s, below the
 * server's 5 s keep-alive timeout, which ends the rest), so a stop behind nginx takes up to 5 s
 * longer. A direct client's idle connections are closed at once: a browser retries a request
 * that a reused connection failed, a proxy does not.
 */
export function closeGently(server: Server, { behindProxy }: { behindProxy: boolean }, done: () => void): void {
  // First in line, so the header is set before any handler writes its head.
  server.prependListener('request', (_request, response) => response.setHeader('connection', 'close'));
  // http.Server#close closes every idle connection at once (node 19 and later): for a server
  // behind a proxy that is the race above, so it is made to leave them. The server is closed for
  // good, so the method need not come back.
  if (behindProxy) server.closeIdleConnections = () => {};
  server.close(() => done());
}
