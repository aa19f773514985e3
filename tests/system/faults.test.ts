import { randomUUID } from 'node:crypto';
import { appendFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postContact, readInbox, VALID } from '../support/contact.ts';
import { errorSchema } from '../support/schemas.ts';
import { freshDataDir, startServer } from '../support/server.ts';
import { CAN_MOUNT, mountTmpfs, remount, unmount } from '../support/tmpfs.ts';
import { waitFor } from '../support/webhook.ts';

const mounts: string[] = [];
afterAll(() => {
  for (const dir of mounts) unmount(dir);
});

/** fetch rejects with a TypeError whose cause carries the socket's error code. */
const connectionErrorCode = (reason: unknown) => String((reason as { cause?: { code?: unknown } }).cause?.code);

const message = (n: number, size = 40) => ({ ...VALID, message: `Message ${n} ${'x'.repeat(size)}` });

describe('a full DATA_DIR', () => {
  it.skipIf(!CAN_MOUNT)(
    'answers writes with 503 in the Error shape, keeps reading, and writes again when space returns',
    async () => {
      const dir = mountTmpfs(3 * 1024)!;
      mounts.push(dir);
      const server = await startServer({ READ_RATE_LIMIT: '100000/60', CONTACT_RATE_LIMIT: '100000/60' }, dir);
      try {
        const acknowledged: string[] = [];
        const first = await postContact(server.baseUrl, message(0));
        expect(first.status).toBe(200);
        acknowledged.push(message(0).message);

        // Fill the disk to the last byte, then keep writing until SQLite runs out of room.
        const filler = path.join(dir, 'filler');
        try {
          for (;;) appendFileSync(filler, Buffer.alloc(64 * 1024));
        } catch {
          try {
            for (;;) appendFileSync(filler, Buffer.alloc(512));
          } catch {
            // The disk is full.
          }
        }
        let refused: Awaited<ReturnType<typeof postContact>> | undefined;
        for (let n = 1; n <= 200 && refused === undefined; n++) {
          const answer = await postContact(server.baseUrl, message(n, 4000));
          expect(answer.status, JSON.stringify(answer.body)).toBeOneOf([200, 503]);
          if (answer.status === 200) acknowledged.push(message(n, 4000).message);
          else refused = answer;
        }
        expect(refused?.status).toBe(503);
        expect(errorSchema.parse(refused?.body).code).toBe('storage_unavailable');
        expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
        expect((await fetch(`${server.baseUrl}/api/v1/projects?limit=1`)).status).toBe(200);
        expect((await fetch(`${server.baseUrl}/projects/leakhound`)).status).toBe(200);

        rmSync(filler);
        const again = await postContact(server.baseUrl, message(999));
        expect(again.status).toBe(200);
        acknowledged.push(message(999).message);

        const inbox = await readInbox(dir);
        expect(inbox.map((entry) => entry.message).sort()).toEqual([...acknowledged].sort());
      } finally {
        await server.stop();
      }
    },
  );
});

describe('owner notification on a full DATA_DIR', () => {
  it.skipIf(!CAN_MOUNT)(
    'keeps serving while a delivery result cannot be written, and records it once space returns, without posting again',
    async () => {
      const dir = mountTmpfs(3 * 1024)!;
      mounts.push(dir);
      const filler = path.join(dir, 'filler');
      let posts = 0;
      let baseUrl = '';
      // The webhook fills the disk before it answers, so the server cannot write that the message was delivered.
      const hook = createServer((req, res) => {
        posts++;
        req.resume();
        void fillDisk(filler, baseUrl).then(() => res.writeHead(200).end());
      });
      await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
      const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      const server = await startServer(
        { READ_RATE_LIMIT: '100000/60', NOTIFY_WEBHOOK_URL: hookUrl, NOTIFY_RETRY_BASE_MS: '200' },
        dir,
      );
      baseUrl = server.baseUrl;
      try {
        expect((await postContact(server.baseUrl, message(1))).status).toBe(200);
        const failed = () => server.logLines.find((line) => line.message === 'webhook bookkeeping failed; retrying');
        for (let waited = 0; failed() === undefined; waited += 100) {
          if (server.process.exitCode !== null || waited > 60_000)
            throw new Error(`no bookkeeping failure logged: ${server.stderr()}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(failed()).toMatchObject({ level: 'error', requestId: 'notifier' });
        expect(String(failed()!.error)).toMatch(/full/i);
        expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
        expect(server.process.exitCode).toBeNull();

        rmSync(filler);
        for (let waited = 0; (await readInbox(dir))[0]?.deliveries.webhook?.state !== 'delivered'; waited += 200) {
          if (waited > 60_000) throw new Error('the delivery was never recorded');
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect((await readInbox(dir))[0]!.deliveries.webhook).toEqual({
          state: 'delivered',
          attempts: 1,
          lastError: null,
          nextAttemptAt: null,
        });
        expect(posts).toBe(1);
        expect(server.process.exitCode).toBeNull();
      } finally {
        await server.stop();
        hook.close();
      }
    },
  );
});

/**
 * Fills the disk to the last byte, then stores sandbox messages (never notified) until SQLite
 * itself runs out of room: the write-ahead log may still have space in blocks it already holds.
 */
async function fillDisk(filler: string, baseUrl: string): Promise<void> {
  for (const size of [64 * 1024, 512]) {
    try {
      for (;;) appendFileSync(filler, Buffer.alloc(size));
    } catch {
      // Full at this granularity.
    }
  }
  for (let n = 0; n < 200; n++) {
    if ((await postContact(baseUrl, message(n, 4000), { query: '?sandbox=true' })).status === 503) return;
  }
  throw new Error('SQLite never ran out of room');
}

describe('a read-only DATA_DIR', () => {
  it.skipIf(!CAN_MOUNT)(
    'starts, serves reads, answers every write with 503, and writes again on a writable one',
    async () => {
      const dir = mountTmpfs(4 * 1024)!;
      mounts.push(dir);
      const first = await startServer({}, dir);
      expect((await postContact(first.baseUrl, message(1))).status).toBe(200);
      await first.stop();

      remount(dir, 'ro');
      const readOnly = await startServer({}, dir);
      try {
        expect(readOnly.logLines.some((line) => String(line.message).startsWith('DATA_DIR is read-only'))).toBe(true);
        for (const path of [
          '/api/v1/projects?limit=2',
          '/api/v1/projects/leakhound',
          '/api/health',
          '/api/search?q=rust',
          '/projects/leakhound',
          '/',
        ]) {
          expect((await fetch(`${readOnly.baseUrl}${path}`)).status, path).toBe(200);
        }
        const emptyPost = async (path: string) => {
          const response = await fetch(`${readOnly.baseUrl}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
          });
          return { status: response.status, body: (await response.json()) as unknown };
        };
        const writes = [
          await postContact(readOnly.baseUrl, message(2)),
          await emptyPost('/api/v1/jobs'),
          await emptyPost('/api/v1/keys'),
        ];
        for (const write of writes) {
          expect(write.status, JSON.stringify(write.body)).toBe(503);
          expect(errorSchema.parse(write.body).code).toBe('storage_unavailable');
        }
        expect((await readInbox(dir)).map((entry) => entry.message)).toEqual([message(1).message]);
      } finally {
        expect(await readOnly.stop()).toBe(0);
      }

      remount(dir, 'rw');
      const writable = await startServer({}, dir);
      try {
        expect((await postContact(writable.baseUrl, message(3))).status).toBe(200);
        expect(await readInbox(dir)).toHaveLength(2);
      } finally {
        await writable.stop();
      }
    },
  );
});

describe('kill -9 during sustained contact traffic', () => {
  it('keeps every acknowledged message after a restart, none twice', async () => {
    const dataDir = freshDataDir();
    const server = await startServer(
      { READ_RATE_LIMIT: '100000/60', CONTACT_RATE_LIMIT: '100000/60', ACCESS_LOG: 'false' },
      dataDir,
    );
    const acknowledged = new Map<string, string>();
    const unanswered = new Map<string, string>();
    let n = 0;
    let killed = false;
    const sender = async () => {
      while (!killed) {
        const key = randomUUID();
        const body = message(++n);
        try {
          const answer = await postContact(server.baseUrl, body, { key });
          if (answer.status === 200) acknowledged.set(key, body.message);
        } catch {
          unanswered.set(key, body.message);
        }
      }
    };
    const senders = Array.from({ length: 16 }, sender);
    // Killed once enough messages are acknowledged, however many a busy machine gets through per second.
    await waitFor(() => acknowledged.size > 20, 'more than 20 acknowledged messages');
    server.process.kill('SIGKILL');
    killed = true;
    await Promise.all(senders);
    await server.stop();
    expect(acknowledged.size).toBeGreaterThan(20);

    const restarted = await startServer(
      { READ_RATE_LIMIT: '100000/60', CONTACT_RATE_LIMIT: '100000/60', ACCESS_LOG: 'false' },
      dataDir,
    );
    try {
      // A client retries what got no answer, with the same key: stored once whether or not it had been.
      for (const [key, text] of unanswered)
        expect((await postContact(restarted.baseUrl, { ...VALID, message: text }, { key })).status).toBe(200);
      const inbox = (await readInbox(dataDir)).map((entry) => entry.message);
      expect(new Set(inbox).size).toBe(inbox.length);
      expect(inbox).toEqual(expect.arrayContaining([...acknowledged.values(), ...unanswered.values()]));
      // A replayed key does not store a second copy.
      const [someKey, someText] = [...acknowledged][0]!;
      const replay = await postContact(restarted.baseUrl, { ...VALID, message: someText }, { key: someKey });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect((await readInbox(dataDir)).length).toBe(inbox.length);
    } finally {
      await restarted.stop();
    }
  });
});

describe('SIGTERM under load', () => {
  it('answers every contact whose body is still arriving, stores each, then exits 0', async () => {
    const dataDir = freshDataDir();
    const server = await startServer({ READ_RATE_LIMIT: '100000/60', CONTACT_RATE_LIMIT: '100000/60' }, dataDir);
    const { port } = new URL(server.baseUrl);
    // Each post asks for 100-continue: node answers it once it has parsed the headers, so the test
    // knows every request is in progress (not an idle connection SIGTERM may close) before it signals.
    const started: Promise<void>[] = [];
    const finishBodies: (() => void)[] = [];
    const slowPosts = Array.from({ length: 10 }, (_, i) => {
      const body = JSON.stringify(message(i));
      return new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/v1/contact',
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'idempotency-key': randomUUID(),
              expect: '100-continue',
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        // Half the body now, the rest after SIGTERM has been sent.
        started.push(
          new Promise<void>((ready) => req.once('continue', () => req.write(body.slice(0, 20), () => ready()))),
        );
        finishBodies.push(() => req.end(body.slice(20)));
        req.flushHeaders();
      });
    });
    await Promise.all(started);
    // Settled at once: a read still waiting in the listen backlog when the server stops accepting is reset, and
    // that must not surface as an unhandled rejection while the test awaits the posts.
    const reads = Promise.allSettled(
      Array.from({ length: 50 }, () => fetch(`${server.baseUrl}/api/v1/projects`).then((response) => response.status)),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    const exit = server.stop('SIGTERM');
    // The bodies end only once the server is draining, however late a busy machine handles the signal.
    await waitFor(
      () => server.logLines.some((line) => line.message === 'shutting down'),
      'the server to log that it is shutting down',
    );
    for (const finish of finishBodies) finish();
    expect(await Promise.all(slowPosts)).toEqual(Array(10).fill(200));
    for (const read of await reads) {
      if (read.status === 'fulfilled') expect(read.value).toBe(200);
      else expect(connectionErrorCode(read.reason)).toMatch(/^(ECONNRESET|ECONNREFUSED|UND_ERR_SOCKET)$/);
    }
    expect(await exit).toBe(0);
    expect(await readInbox(dataDir)).toHaveLength(10);
  });
});
