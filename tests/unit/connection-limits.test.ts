import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { limitConnections } from '../../functions/hosts/node/connection-limits.ts';

/** Just what the caps read of a socket: its peer address, destroy() and 'close'. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(readonly remoteAddress: string) {
    super();
  }
  destroy(): this {
    if (!this.destroyed) {
      this.destroyed = true;
      queueMicrotask(() => this.emit('close'));
    }
    return this;
  }
}

function capped(maxConnections: number, maxConnectionsPerClient: number, trustProxy = 0) {
  const server = new EventEmitter();
  const requestStarted = limitConnections(
    server as unknown as Server,
    { headersTimeoutMs: 1000, requestTimeoutMs: 1000, maxConnections, maxConnectionsPerClient },
    trustProxy,
  );
  return {
    connect(address: string): FakeSocket {
      const socket = new FakeSocket(address);
      server.emit('connection', socket);
      return socket;
    },
    /** Starts a request on a socket; the returned function ends its answer. */
    request(socket: FakeSocket): () => void {
      const request = { socket };
      const response = Object.assign(new EventEmitter(), { req: request });
      requestStarted(request as unknown as IncomingMessage, response as unknown as ServerResponse);
      return () => response.emit('close');
    },
  };
}

describe('the per-client connection cap', () => {
  it('counts an IPv6 /64 as one client, as quotas do', () => {
    const caps = capped(100, 3);
    const sameNetwork = ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff:ffff:ffff:ffff'].map((address) =>
      caps.connect(address),
    );
    expect(sameNetwork.map((socket) => socket.destroyed)).toEqual([false, false, false]);
    // Another address of the same /64 is the same client...
    expect(caps.connect('2001:db8:1:2:abcd::9').destroyed).toBe(true);
    // ...while the next /64 is another.
    expect(caps.connect('2001:db8:1:3::1').destroyed).toBe(false);
  });

  it('counts an IPv4-mapped address as the IPv4 address it maps', () => {
    const caps = capped(100, 2);
    caps.connect('192.0.2.7');
    caps.connect('::ffff:192.0.2.7');
    expect(caps.connect('192.0.2.7').destroyed).toBe(true);
    expect(caps.connect('::ffff:192.0.2.8').destroyed).toBe(false);
  });

  it('gives a slot back when a connection closes', async () => {
    const caps = capped(100, 1);
    const first = caps.connect('192.0.2.1');
    expect(caps.connect('192.0.2.1').destroyed).toBe(true);
    first.destroy();
    await Promise.resolve();
    expect(caps.connect('192.0.2.1').destroyed).toBe(false);
  });
});

describe('the total connection cap', () => {
  it('makes room for a new connection by closing the one idle longest', () => {
    const caps = capped(4, 10);
    const [a, b, c, d] = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'].map((address) => caps.connect(address));
    // a and b serve requests; a finishes, so the order of idleness is c, d, a.
    const endA = caps.request(a!);
    caps.request(b!);
    endA();
    const e = caps.connect('192.0.2.5');
    expect([a, b, c, d, e].map((socket) => socket!.destroyed)).toEqual([false, false, true, false, false]);
    caps.connect('192.0.2.6');
    expect(d!.destroyed).toBe(true);
    caps.connect('192.0.2.7');
    expect(a!.destroyed).toBe(true);
    expect(b!.destroyed).toBe(false);
  });

  it('closes a new connection only when every open one is serving a request', () => {
    const caps = capped(2, 10);
    const busy = ['192.0.2.1', '192.0.2.2'].map((address) => caps.connect(address));
    for (const socket of busy) caps.request(socket);
    expect(caps.connect('192.0.2.3').destroyed).toBe(true);
    expect(busy.map((socket) => socket.destroyed)).toEqual([false, false]);
  });

  it('counts a connection with two requests in progress as busy until both are answered', () => {
    const caps = capped(2, 10);
    const pipelined = caps.connect('192.0.2.1');
    const busy = caps.connect('192.0.2.2');
    caps.request(busy);
    const endFirst = caps.request(pipelined);
    const endSecond = caps.request(pipelined);
    endFirst();
    expect(caps.connect('192.0.2.3').destroyed).toBe(true);
    endSecond();
    expect(caps.connect('192.0.2.4').destroyed).toBe(false);
    expect(pipelined.destroyed).toBe(true);
  });

  it('applies behind trusted proxies, where there is no per-client cap', () => {
    const caps = capped(3, 1, 1);
    const fromProxy = [1, 2, 3].map(() => caps.connect('10.0.0.1'));
    expect(fromProxy.map((socket) => socket.destroyed)).toEqual([false, false, false]);
    caps.connect('10.0.0.1');
    expect(fromProxy[0]!.destroyed).toBe(true);
  });
});
