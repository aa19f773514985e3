import { Agent, createServer, request, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closeGently } from '../../functions/hosts/node/drain.ts';

/** A real server on a loopback port, and a keep-alive client with one socket, so requests reuse it. */
async function serverAndClient() {
  const server = createServer({ keepAliveTimeout: 60_000 }, (_request, response) => response.end('ok'));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<{ status: number; connection: string | undefined }>((answered, failed) => {
      request({ host: '127.0.0.1', port, agent }, (response) => {
        response.resume();
        response.on('end', () => answered({ status: response.statusCode!, connection: response.headers.connection }));
      })
        .on('error', failed)
        .end();
    });
  return { server, agent, get };
}

describe('closeGently', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => cleanup.splice(0).forEach((step) => step()));

  function closed(server: Server, behindProxy: boolean): { done: boolean; ended: Promise<void> } {
    const state = { done: false, ended: Promise.resolve() };
    state.ended = new Promise<void>((ended) =>
      closeGently(server, { behindProxy }, () => {
        state.done = true;
        ended();
      }),
    );
    return state;
  }

  it('behind a proxy, answers a request on an idle kept connection, with Connection: close, then ends', async () => {
    const { server, agent, get } = await serverAndClient();
    cleanup.push(() => agent.destroy());
    expect(await get()).toEqual({ status: 200, connection: 'keep-alive' });

    const stop = closed(server, true);
    // The idle connection was left open: the proxy may still send on it, and is answered.
    expect(stop.done).toBe(false);
    expect(await get()).toEqual({ status: 200, connection: 'close' });
    await stop.ended;
    expect(stop.done).toBe(true);
  });

  it('for direct clients, closes idle connections at once', async () => {
    const { server, agent, get } = await serverAndClient();
    cleanup.push(() => agent.destroy());
    expect(await get()).toEqual({ status: 200, connection: 'keep-alive' });

    const stop = closed(server, false);
    await stop.ended;
    expect(stop.done).toBe(true);
    await expect(get()).rejects.toThrow();
  });
});
