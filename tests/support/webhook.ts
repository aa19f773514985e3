import { createServer, type Server } from 'node:http';

/** How long a wait may last before the test fails as hung: generous, for a busy 2-core machine. */
const HANG_GUARD_MS = 60_000;

export interface Receiver {
  url: string;
  /** Each accepted post: its headers, its body parsed, and its body as sent (what a signature covers). */
  received: { headers: Record<string, unknown>; body: Record<string, unknown>; raw: string }[];
  attempts: () => number;
  /** Resolves once `count` posts have been accepted (answered 204); rejects after HANG_GUARD_MS. */
  accepted(count: number): Promise<void>;
  close: () => void;
}

/** A local webhook receiver that fails its first `failures` posts with a 500; `onPost` runs before each answer. */
export function receiver(failures: number, onPost: () => void = () => undefined): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let attempts = 0;
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      attempts++;
      onPost();
      if (attempts <= failures) {
        res.writeHead(500).end('not yet');
        return;
      }
      received.push({ headers: req.headers, body: JSON.parse(text) as Record<string, unknown>, raw: text });
      res.writeHead(204).end();
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
    });
  });
  const accepted = (count: number) =>
    new Promise<void>((resolve, reject) => {
      if (received.length >= count) return resolve();
      const timer = setTimeout(
        () => reject(new Error(`the webhook received ${received.length} of ${count} posts`)),
        HANG_GUARD_MS,
      );
      waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${address.port}/hook`,
        received,
        attempts: () => attempts,
        accepted,
        close: () => server.close(),
      });
    }),
  );
}

/** Polls a cheap check (an in-memory value, a database read) until it holds; fails after `timeoutMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = HANG_GUARD_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface Flood {
  url: string;
  /** Bytes of the answer's body it handed to its socket before the socket closed. */
  written: () => number;
  /** Resolves once the connection of the post has closed; rejects after HANG_GUARD_MS. */
  closed: Promise<void>;
  close: () => void;
}

/**
 * A receiver that accepts the post with a 200 and then streams an answer that does not end
 * (64 KiB chunks, as fast as the client reads them), up to `capBytes`, a bound only for the
 * test's own sake.
 */
export function floodingReceiver(capBytes: number): Promise<Flood> {
  let written = 0;
  let onClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the flooded connection never closed')), HANG_GUARD_MS);
    onClosed = () => (clearTimeout(timer), resolve());
  });
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const pump = () => {
        while (!res.destroyed && written < capBytes) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });
    res.on('close', onClosed);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}/hook`, written: () => written, closed, close: () => server.close() });
    }),
  );
}

/** A receiver that answers every post with `status` (a redirect) to `location`; counts the posts. */
export function redirectingReceiver(
  status: number,
  location: string,
): Promise<{ url: string; attempts: () => number; close: () => void }> {
  let attempts = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      attempts++;
      res.writeHead(status, { location }).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}/hook`, attempts: () => attempts, close: () => server.close() });
    }),
  );
}
