import { connect, createServer, type Socket } from 'node:net';

/** A TCP proxy on loopback that holds every chunk for a while, in each direction. */
export interface DelayProxy {
  /** The port it listens on, on 127.0.0.1. */
  port: number;
  /** `url` (a PostgreSQL URL, say) with the proxy's host and port in place of the target's. */
  urlThrough(url: string): string;
  /** Stops listening and cuts every connection through it. */
  close(): Promise<void>;
}

/**
 * Forwards each connection to `target` and delays every chunk by `delayMs` in each direction,
 * as a database some distance away would: a round trip costs twice the delay, and order is
 * kept (timers of one duration fire in the order they were set, and so does the end of a
 * stream, set after its last chunk). It runs in the process that starts it, which is no
 * bottleneck at the few connections of a test or a bench. Backpressure is passed on: a side
 * that cannot take more pauses the other.
 */
export function startDelayProxy(target: { host?: string; port: number }, delayMs = 10): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      setTimeout(() => {
        if (!to.destroyed && !to.write(chunk)) {
          from.pause();
          to.once('drain', () => from.resume());
        }
      }, delayMs);
    });
    from.once('end', () => setTimeout(() => to.end(), delayMs));
    // A reset on one side reaches the other, after the same delay.
    from.on('error', () => setTimeout(() => to.destroy(), delayMs));
  };
  const server = createServer((client) => {
    const upstream = connect({ host: target.host ?? '127.0.0.1', port: target.port });
    track(client);
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        port,
        urlThrough: (url) => {
          const through = new URL(url);
          through.hostname = '127.0.0.1';
          through.port = String(port);
          return through.toString();
        },
        close: () =>
          new Promise<void>((closed) => {
            server.close(() => closed());
            for (const socket of sockets) socket.destroy();
          }),
      });
    });
  });
}
