import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionLimits } from '../config/env.ts';

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
 * Caps open connections, in all and per client, so that connections opened and left half
 * done cannot use up the process's file descriptors while real clients wait. A connection
 * over a cap is closed as soon as it opens, before a byte of it is read.
 *
 * The per-client cap counts by the socket's peer address, the only address known when a
 * connection opens. Behind trusted proxies (`trustProxy` > 0) every connection comes from a
 * proxy, and capping it would cap all clients at once, so only the total cap applies: the
 * proxy, which sees each client's connections, is the place to cap them (nginx `limit_conn`),
 * and one that buffers request bodies (nginx does by default) never passes a trickle on.
 */
export function limitConnections(server: Server, limits: ConnectionLimits, trustProxy: number): void {
  server.maxConnections = limits.maxConnections;
  if (trustProxy > 0) return;
  const perClient = limits.maxConnectionsPerClient;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress;
    const count = (open.get(peer ?? '') ?? 0) + 1;
    if (peer === undefined || count > perClient) {
      socket.destroy();
      return;
    }
    open.set(peer, count);
    socket.once('close', () => {
      const left = (open.get(peer) ?? 1) - 1;
      if (left === 0) open.delete(peer);
      else open.set(peer, left);
    });
  });
}
