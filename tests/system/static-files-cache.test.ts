import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServicePath } from '../../functions/app/handle.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { strongEtag } from '../../functions/http/etag.ts';
import { startServer, type RunningService } from '../../functions/hosts/node/start-server.ts';
import type { StaticFilesLimits } from '../../functions/hosts/node/static-files.ts';
import { loadBuild } from '../../functions/hosts/static/build-output.ts';
import { builtFileHeaders } from '../../functions/hosts/static/built-file-headers.ts';
import { listBuiltFiles } from '../../functions/hosts/static/built-files.ts';
import { freshDataDir, ROOT } from '../support/server.ts';

/**
 * The built files from a cache bounded in bytes (functions/hosts/node/static-files.ts): a server
 * with a tiny budget serves every file byte for byte with the headers of a server whose budget
 * holds everything, never holds more than its budget, answers a hot file from memory, streams
 * the files too large to hold, and answers 500 (and keeps serving) when a file is gone from disk.
 */

const TINY: StaticFilesLimits = { cacheBytes: 64 * 1024, cachedFileMaxBytes: 16 * 1024, concurrentReads: 2 };
const ROOMY: StaticFilesLimits = {
  cacheBytes: 1024 * 1024 * 1024,
  cachedFileMaxBytes: 1024 * 1024 * 1024,
  concurrentReads: 16,
};

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function raw(baseUrl: string, urlPath: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<Answer>((resolve, reject) => {
    const url = new URL(baseUrl);
    const req = request({ host: url.hostname, port: url.port, path: urlPath, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The headers that must match between two servers: all but the ones made per request. */
function lasting(headers: Answer['headers']): Answer['headers'] {
  const { date: _date, 'x-request-id': _id, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}

const clientDir = mkdtempSync(path.join(tmpdir(), 'static-cache-client-'));
const config = loadConfig({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: freshDataDir(),
  ACCESS_LOG: 'false',
});
let tiny: RunningService;
let roomy: RunningService;
let paths: [string, string][];

beforeAll(async () => {
  // A copy of the client dir, so that a test may take files away from under the running server.
  cpSync(path.join(ROOT, 'dist', 'client'), clientDir, { recursive: true });
  const build = { ...loadBuild(path.join(ROOT, 'dist')), clientDir };
  tiny = await startServer(config, build, TINY);
  roomy = await startServer(
    loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: freshDataDir(), ACCESS_LOG: 'false' }),
    build,
    ROOMY,
  );
  // The paths the service answers itself (/contact, /search) are pages filled in per request.
  paths = [...builtFileHeaders(listBuiltFiles(clientDir), config).paths]
    .filter(([urlPath]) => !isServicePath(urlPath))
    .map(([urlPath, served]) => [urlPath, served.file]);
}, 60_000);

afterAll(async () => {
  await Promise.all([tiny?.close(), roomy?.close()]);
  rmSync(clientDir, { recursive: true, force: true });
});

describe('built files from a cache bounded in bytes', () => {
  it('serves every file in every encoding byte for byte, with the same headers as a server holding everything, within its budget', async () => {
    let streamed = 0;
    for (const encoding of ['br', 'gzip', 'identity']) {
      for (const [urlPath, file] of paths) {
        const headers = { 'accept-encoding': encoding };
        const [small, big] = await Promise.all([raw(tiny.url, urlPath, headers), raw(roomy.url, urlPath, headers)]);
        expect(small.status, urlPath).toBe(200);
        // Asked twice, a file that fits is held: the budget is what keeps the cache small.
        const again = await raw(tiny.url, urlPath, headers);
        expect(again.body.equals(small.body), urlPath).toBe(true);
        expect(lasting(again.headers), urlPath).toEqual(lasting(small.headers));
        expect(lasting(small.headers), urlPath).toEqual(lasting(big.headers));
        expect(small.body.equals(big.body), urlPath).toBe(true);
        const coding = small.headers['content-encoding'];
        const suffix = coding === 'br' ? '.br' : coding === 'gzip' ? '.gz' : '';
        const onDisk = path.join(clientDir, file);
        expect(small.body.equals(readFileSync(`${onDisk}${suffix}`)), urlPath).toBe(true);
        expect(small.headers.etag).toBe(strongEtag(readFileSync(onDisk)));
        expect(Number(small.headers['content-length'])).toBe(small.body.length);
        if (small.body.length > TINY.cachedFileMaxBytes) streamed += 1;
        expect(tiny.statics.cache.bytes).toBeLessThanOrEqual(TINY.cacheBytes);
      }
    }
    // The build has files too large for this budget, which streamed from disk.
    expect(streamed).toBeGreaterThan(0);
    expect(tiny.statics.diskReads.streams).toBeGreaterThanOrEqual(streamed);
    expect(tiny.statics.cache.size).toBeGreaterThan(0);
  }, 300_000);

  it('answers a hot file from memory: read from disk on its second request, then never again', async () => {
    const first = await raw(tiny.url, '/llms.txt', { 'accept-encoding': 'br' });
    // The second request keeps the file (a crawl of every file since may have pushed it out).
    await raw(tiny.url, '/llms.txt', { 'accept-encoding': 'br' });
    const reads = { ...tiny.statics.diskReads };
    for (let i = 0; i < 5; i += 1) {
      const again = await raw(tiny.url, '/llms.txt', { 'accept-encoding': 'br' });
      expect(again.body.equals(first.body)).toBe(true);
      expect(lasting(again.headers)).toEqual(lasting(first.headers));
    }
    expect(tiny.statics.diskReads).toEqual(reads);
  });

  it('answers HEAD and 304 without reading the file', async () => {
    const [urlPath] = paths.find(([, file]) => file.endsWith('.html'))!;
    const reads = { ...tiny.statics.diskReads };
    const head = await raw(roomy.url, urlPath, { 'accept-encoding': 'identity' }, 'HEAD');
    const tinyHead = await raw(tiny.url, urlPath, { 'accept-encoding': 'identity' }, 'HEAD');
    expect(tinyHead.body.length).toBe(0);
    expect(lasting(tinyHead.headers)).toEqual(lasting(head.headers));
    const notModified = await raw(tiny.url, urlPath, { 'if-none-match': String(head.headers.etag) });
    expect(notModified.status).toBe(304);
    expect(tiny.statics.diskReads).toEqual(reads);
  });

  it('answers 500 for a file gone from disk, read whole or streamed, and goes on serving', async () => {
    // Not a case the server supports (the build is immutable), but a failed read must not end it.
    const gone = (small: boolean) =>
      paths.find(([urlPath, file]) => {
        const size = readFileSync(path.join(clientDir, file)).length;
        return urlPath !== '/llms.txt' && (small ? size < TINY.cachedFileMaxBytes : size > TINY.cachedFileMaxBytes * 4);
      })!;
    for (const [urlPath, file] of [gone(true), gone(false)]) {
      // Out of the cache first: a budget's worth of other files pushes it out.
      for (const other of ['.br', '.gz', '']) rmSync(path.join(clientDir, `${file}${other}`), { force: true });
      for (const [other] of paths) if (other !== urlPath) await raw(tiny.url, other, { 'accept-encoding': 'gzip' });
      const answer = await raw(tiny.url, urlPath, { 'accept-encoding': 'identity' });
      expect(answer.status, urlPath).toBe(500);
      expect(answer.headers['x-request-id']).toBeDefined();
    }
    expect((await raw(tiny.url, '/llms.txt')).status).toBe(200);
  });
});
