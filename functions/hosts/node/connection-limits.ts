import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionLimits } from '../../config/env.ts';
import { clientIpOf, clientKeyOf } from '../../http/client-ip.ts';

/**
 * node checks its header and request timeouts on this interval; its default of 30 s would add
 * up to 30 s to each of them.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * The timeouts of the node:http server. A client that has not sent its headers by the header
 * timeout, or its whole request by the request timeout, gets 408 and its connection is closed
 * (RFC 9110 section 15.5.9), so a trickle of bytes cannot hold a socket (or an Idempotency-Key
 * claim) for long. Idle keep-alive connections close after 5 s.
 */
export function serverTimeouts(limits: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    keepAliveTimeout: 5_000,
  };
}

/**
 * Counts a request in progress on its connection until its response closes. The server's one
 * request listener calls it first: a second 'request' listener would make node copy its
 * listener list at every request.
 */
export type RequestStarted = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Caps open connections, in all and per client, so that connections opened and left idle or
 * half done cannot use up the process's file descriptors while real clients wait.
 *
 * At the total cap a new connection first takes the place of the connection that has been idle
 * longest: one with no request in progress, waiting for its next request on keep-alive or for
 * its first. Only when every open connection is serving a request is the new one closed. So
 * idle connections cannot lock new clients out, however many addresses hold them.
 *
 * The per-client cap counts by the socket's peer address, the only address known when a
 * connection opens, grouped as quotas group clients (clientKeyOf: an IPv6 /64 is one client). A
 * connection over it is closed as soon as it opens, before a byte of it is read. Behind trusted
 * proxies (`trustProxy` > 0) every connection comes from a proxy, and capping it would cap all
 * clients at once, so only the total cap applies: the proxy, which sees each client's
 * connections, is the place to cap them (nginx `limit_conn`), and one that buffers request
 * bodies (nginx does by default) never passes a trickle on.
 *
 * Returns what the server's request listener calls for each request (RequestStarted).
 */
export function limitConnections(server: Server, limits: ConnectionLimits, trustProxy: number): RequestStarted {
  const perClient = trustProxy > 0 ? Infinity : limits.maxConnectionsPerClient;
  const perKey = new Map<string, number>();
  // Every open connection: its client key and how many of its requests are in progress.
  const connections = new Map<Socket, { key: string; active: number }>();
  // The idle ones in the order they became idle: the first has been idle longest.
  const idle = new Set<Socket>();

  /** Counts a connection out; its 'close' may come on a later tick, or already have come. */
  function forget(socket: Socket): void {
    const connection = connections.get(socket);
    if (connection === undefined) return;
    connections.delete(socket);
    idle.delete(socket);
    const left = (perKey.get(connection.key) ?? 1) - 1;
    if (left === 0) perKey.delete(connection.key);
    else perKey.set(connection.key, left);
  }

  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress;
    const key = peer === undefined ? undefined : clientKeyOf(clientIpOf(peer, undefined, 0));
    if (key === undefined || (perKey.get(key) ?? 0) >= perClient) {
      socket.destroy();
      return;
    }
    if (connections.size >= limits.maxConnections) {
      const longestIdle = idle.values().next();
      if (longestIdle.done === true) {
        socket.destroy();
        return;
      }
      forget(longestIdle.value);
      longestIdle.value.destroy();
    }
    connections.set(socket, { key, active: 0 });
    perKey.set(key, (perKey.get(key) ?? 0) + 1);
    idle.add(socket);
    socket.once('close', () => forget(socket));
  });

  /**
   * Idle again once its last answer is out (or cut), at the end of the order. One function for
   * every response (its request names the socket, which the response no longer does once
   * closed); a response closes once and is then dropped, so a plain listener does.
   */
  function responseClosed(this: ServerResponse): void {
    const socket = this.req.socket;
    const connection = connections.get(socket);
    if (connection === undefined) return;
    connection.active -= 1;
    if (connection.active === 0) idle.add(socket);
  }

  return (request, response) => {
    const connection = connections.get(request.socket);
    if (connection === undefined) return;
    connection.active += 1;
    idle.delete(request.socket);
    response.on('close', responseClosed);
  };
}
