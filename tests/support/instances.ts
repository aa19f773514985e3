import { connect, type Socket } from 'node:net';
import { bindEngineEnv } from './engines.ts';
import { queryState } from './raw-state.ts';
import { freshDataDir, startServer, type RunningServer } from './server.ts';

/**
 * Several production servers sharing one PostgreSQL and one Redis, as a load balancer would put
 * them side by side: one SITE_URL (the default), one DATABASE_URL and REDIS_URL, a DATA_DIR each.
 */

/** The servers every instance of one deployment shares. */
export interface SharedServers {
  DATABASE_URL: string;
  REDIS_URL: string;
}

/**
 * Starts one instance on `shared`, with a DATA_DIR of its own unless given one (a restart). The
 * data directory is bound to `shared` (engines.ts), so the state helpers that take a data
 * directory (storedInbox, readInbox, queryState) look at the shared database.
 */
export function startInstance(
  shared: SharedServers,
  env: Record<string, string>,
  dataDir = freshDataDir(),
  onLog?: (entry: Record<string, unknown>) => void,
): Promise<RunningServer> {
  bindEngineEnv(dataDir, shared);
  return startServer({ ...env, ...shared }, dataDir, { onLog });
}

/** Counts each status, for comparing a spread of answers in one assertion. */
export function tally(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** A contact post whose body is half sent: the server has its headers and is waiting for the rest. */
export interface SlowPost {
  socket: Socket;
  /** Sends the rest of the body; resolves with the raw HTTP answer. */
  finish(): Promise<string>;
}

/**
 * Opens a connection to `baseUrl` and sends a contact post's headers and the first half of
 * `body`, holding the rest back: the request is in flight, holding its Idempotency-Key, until
 * finish() or until the connection (or the server) dies.
 */
export async function slowContactPost(baseUrl: string, key: string, body: string): Promise<SlowPost> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let answer = '';
  const ended = new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
      if (complete(answer)) resolve(answer);
    });
    socket.on('close', () => resolve(answer));
  });
  socket.on('error', () => undefined);
  const half = Math.floor(Buffer.byteLength(body) / 2);
  socket.write(
    `POST /api/v1/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Idempotency-Key: ${key}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
  );
  return {
    socket,
    finish: () => {
      socket.write(body.slice(half));
      return ended.finally(() => socket.destroy());
    },
  };
}

/** One HTTP answer has arrived whole: its headers and as many body bytes as Content-Length says. */
function complete(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /^content-length:\s*(\d+)/im.exec(text.slice(0, end));
  return length !== null && Buffer.byteLength(text.slice(end + 4)) >= Number(length[1]);
}

/** When the in-flight claim on a contact Idempotency-Key ends (epoch ms), or undefined while nobody holds it. */
export async function claimLeaseEnd(dataDir: string, key: string): Promise<number | undefined> {
  const rows = await queryState(
    dataDir,
    "SELECT locked_until FROM idempotency WHERE scope = 'contact' AND key = ? AND state = 'in_flight'",
    key,
  );
  return rows[0]?.locked_until as number | undefined;
}

/** How many stored messages carry each text, for the texts asked about (0 for one never stored). */
export function countByText(stored: readonly { message: string }[], texts: readonly string[]): Map<string, number> {
  const counts = new Map(texts.map((text) => [text, 0]));
  for (const { message } of stored) if (counts.has(message)) counts.set(message, counts.get(message)! + 1);
  return counts;
}
