import { createHash, hash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync, type ReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { etagOfDigest } from '../../http/etag.ts';
import { BoundedMap } from '../../limits/bounded-map.ts';
import { ByteBudgetCache } from '../../limits/byte-budget-cache.ts';
import { ConcurrencyLimit } from '../../limits/concurrency-limit.ts';
import type { HeaderTable, ServedFile } from '../static/built-file-headers.ts';
import { COMPRESSED_VARIANTS, preflightHeaders } from '../static/built-files.ts';

/** One encoding of a file with the headers it is always sent with; its bytes stay on disk. */
export interface StaticVariant {
  /** Where the bytes are (the built file or its `.br`/`.gz` beside it). */
  path: string;
  length: number;
  headers: Record<string, string>;
  /** The same headers as a flat [name, value, ...] list, the cheapest form for writeHead. */
  headerList: readonly string[];
}

export interface StaticFile {
  etag: string;
  /** What a 304 repeats (RFC 9110 section 15.4.5): validators and caching, no content headers. */
  notModifiedHeaderList: readonly string[];
  identity: StaticVariant;
  gzip?: StaticVariant;
  br?: StaticVariant;
  /**
   * The answer to a CORS preflight (OPTIONS), for files served with Access-Control-Allow-Methods:
   * those headers only mean something to a browser in a preflight's answer (Fetch standard,
   * "CORS-preflight fetch"), which must be a 2xx.
   */
  preflightHeaderList?: readonly string[];
}

/** A page kept in memory for good: the 404 page and its twin answer every missing path. */
export interface PinnedPage {
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * How much of the built output stays in memory. The budget holds the hot files of a site of any
 * size (the pages, documents and their compressed variants a visitor or an agent asks for
 * again and again: tens of kilobytes each); a file over `cachedFileMaxBytes` is never held and
 * always streams from disk. Disk reads run `concurrentReads` at a time.
 */
export interface StaticFilesLimits {
  cacheBytes: number;
  cachedFileMaxBytes: number;
  concurrentReads: number;
}

export const STATIC_FILES_LIMITS: StaticFilesLimits = {
  cacheBytes: 32 * 1024 * 1024,
  cachedFileMaxBytes: 4 * 1024 * 1024,
  concurrentReads: 16,
};

/** How many files read once are remembered (a few hundred kilobytes of Map entries at most). */
const ASKED_BEFORE_REMEMBERED = 8192;

/**
 * The prerendered output with every header precomputed at start, and the bytes of the files
 * asked for lately in a cache bounded in bytes: a request for a hot page or document costs a map
 * lookup and a write, with no system call; another reads its file from disk (a bounded number of
 * reads at once, a large file streamed with backpressure), so memory stays flat however many
 * projects the site has. Which file answers which path, and with which headers, is the build's
 * header table (../static/built-file-headers.ts), the one every host's rules are made from; this
 * adds what a host computes from the bytes: the ETag, the length, and the precompressed variants.
 * Compression happened at build; start only hashes each file and notes the size of the
 * `.br`/`.gz` files beside it (a file without them is sent as it is). `404.html` and `404.md`
 * answer for every missing path and stay in memory.
 *
 * The build is immutable: a file changed on disk under a running server is not supported (its
 * ETag and length were taken at start); deploy a new build and restart.
 */
export class StaticFiles {
  readonly files = new Map<string, StaticFile>();
  readonly notFoundPage: PinnedPage | undefined;
  /** The 404 page's Markdown twin, for a missing path asked as Markdown. */
  readonly notFoundMarkdown: PinnedPage | undefined;
  /** The bytes of the files asked for lately, by file on disk (a file served at several paths is held once). */
  readonly cache: ByteBudgetCache<string>;
  /** Whole files read from disk (not streams), and streams opened: what the tests watch. */
  readonly diskReads = { files: 0, streams: 0 };

  /** The Markdown twin of each page that has one (by clean URL), as the page's URL answers it. */
  private readonly negotiated = new Map<string, StaticFile>();
  private readonly reads: ConcurrencyLimit;
  /** The files read lately that are not held yet: the next read of one of them keeps it. */
  private readonly askedBefore = new BoundedMap<string, true>(ASKED_BEFORE_REMEMBERED);
  /** Reads under way, so that a burst of requests for one cold file reads it once. */
  private readonly pending = new Map<string, Promise<Buffer>>();

  constructor(root: string, table: HeaderTable, limits: StaticFilesLimits = STATIC_FILES_LIMITS) {
    this.cache = new ByteBudgetCache(limits.cacheBytes, limits.cachedFileMaxBytes);
    this.reads = new ConcurrencyLimit(limits.concurrentReads);
    // A file served at several paths, or with other headers at a page's URL, is hashed once.
    const facts = new Map<string, FileFacts>();
    const load = (served: ServedFile) => {
      let known = facts.get(served.file);
      if (known === undefined) facts.set(served.file, (known = fileFacts(path.join(root, served.file))));
      return staticFile(known, served.headers);
    };
    for (const [urlPath, served] of table.paths) this.files.set(urlPath, load(served));
    for (const [urlPath, served] of table.negotiated) this.negotiated.set(urlPath, load(served));
    const pinned = (served: ServedFile | undefined): PinnedPage | undefined => {
      if (served === undefined) return undefined;
      const { identity } = load(served);
      return { headers: identity.headers, body: readFileSync(identity.path) };
    };
    this.notFoundPage = pinned(table.notFound);
    this.notFoundMarkdown = pinned(table.notFoundMarkdown);
  }

  get(urlPath: string): StaticFile | undefined {
    return this.files.get(urlPath);
  }

  /** The Markdown twin of a page, as its URL answers `Accept: text/markdown` (its own caching: the header table's). */
  markdownTwin(urlPath: string): StaticFile | undefined {
    return this.negotiated.get(urlPath);
  }

  /** The bytes of `variant` if they are in memory: the hot path, with no system call. */
  cached(variant: StaticVariant): Buffer | undefined {
    return this.cache.get(variant.path);
  }

  /** Whether `variant` is too large to hold, and streams from disk instead. */
  streams(variant: StaticVariant): boolean {
    return !this.cache.fits(variant.length);
  }

  /**
   * Reads `variant` from disk (one read per file however many ask at once); the second time in a
   * while that a file is read, it stays in the cache. A file asked for once, as a crawler asks
   * for every page, is read and let go young: held, it would push a hot file out, and its bytes,
   * by then in the old generation, would only go at a full collection, which is what made RSS
   * grow far past the budget under a crawl.
   */
  read(variant: StaticVariant): Promise<Buffer> {
    let reading = this.pending.get(variant.path);
    if (reading === undefined) {
      reading = this.reads
        .run(() => {
          this.diskReads.files += 1;
          return readFile(variant.path);
        })
        .then((bytes) => {
          if (this.askedBefore.get(variant.path) === undefined) this.askedBefore.set(variant.path, true);
          else this.cache.set(variant.path, bytes);
          return bytes;
        })
        .finally(() => this.pending.delete(variant.path));
      this.pending.set(variant.path, reading);
    }
    return reading;
  }

  /**
   * A stream of a large file's bytes, read in chunks of 64 KiB as the client takes them (the
   * caller pipes it with backpressure). Streams are not counted against the concurrent reads:
   * each holds one open file and at most one chunk, and the server's connection limit
   * (MAX_CONNECTIONS) bounds how many there are.
   */
  stream(variant: StaticVariant): ReadStream {
    this.diskReads.streams += 1;
    return createReadStream(variant.path, { highWaterMark: 64 * 1024 });
  }
}

/** The variant a client accepts, preferring brotli, then gzip (RFC 9110 section 12.5.3, q=0 honoured). */
export function variantFor(file: StaticFile, acceptEncoding: string | undefined): StaticVariant {
  if (acceptEncoding !== undefined && (file.br !== undefined || file.gzip !== undefined)) {
    const accepted = acceptedEncodings(acceptEncoding);
    if (file.br !== undefined && accepted.has('br')) return file.br;
    if (file.gzip !== undefined && accepted.has('gzip')) return file.gzip;
  }
  return file.identity;
}

function acceptedEncodings(header: string): Set<string> {
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  return accepted;
}

/** What start learns of a file: where it is, its tag and length, and the precompressed variants beside it. */
interface FileFacts {
  path: string;
  length: number;
  etag: string;
  br: OnDisk | undefined;
  gzip: OnDisk | undefined;
}

interface OnDisk {
  path: string;
  length: number;
}

function fileFacts(file: string): FileFacts {
  const { etag, length } = hashFile(file);
  return {
    path: file,
    length,
    etag,
    br: variantOnDisk(file, COMPRESSED_VARIANTS.br, length),
    gzip: variantOnDisk(file, COMPRESSED_VARIANTS.gzip, length),
  };
}

/** One buffer for hashing every file at start, so that start keeps none of the bytes it read. */
const HASH_CHUNK = Buffer.allocUnsafe(256 * 1024);

/**
 * The file's strong ETag (the same as strongEtag of its bytes) and length, read in chunks. Most
 * files fit one chunk and take the one-shot hash, which allocates no hash object: at thousands
 * of files, those objects were most of start's garbage.
 */
function hashFile(file: string): { etag: string; length: number } {
  const fd = openSync(file, 'r');
  try {
    let length = readSync(fd, HASH_CHUNK);
    if (length < HASH_CHUNK.length)
      return { etag: etagOfDigest(hash('sha256', HASH_CHUNK.subarray(0, length), 'buffer')), length };
    const chunks = createHash('sha256').update(HASH_CHUNK);
    for (let read = readSync(fd, HASH_CHUNK); read > 0; read = readSync(fd, HASH_CHUNK)) {
      chunks.update(HASH_CHUNK.subarray(0, read));
      length += read;
    }
    return { etag: etagOfDigest(chunks.digest()), length };
  } finally {
    closeSync(fd);
  }
}

function staticFile(facts: FileFacts, decided: Readonly<Record<string, string>>): StaticFile {
  const { etag, br, gzip } = facts;
  const { vary, ...rest } = decided;
  const base: Record<string, string> = {
    ...rest,
    etag,
    ...varyHeader(br !== undefined || gzip !== undefined, vary),
  };
  const variant = (onDisk: OnDisk, encoding?: string): StaticVariant => {
    const headers = {
      ...base,
      'content-length': String(onDisk.length),
      ...(encoding ? { 'content-encoding': encoding } : {}),
    };
    return { path: onDisk.path, length: onDisk.length, headers, headerList: Object.entries(headers).flat() };
  };
  const { 'content-type': _type, ...notModified } = base;
  const result: StaticFile = {
    etag,
    notModifiedHeaderList: Object.entries(notModified).flat(),
    identity: variant(facts),
  };
  if (gzip !== undefined) result.gzip = variant(gzip, 'gzip');
  if (br !== undefined) result.br = variant(br, 'br');
  if (base['access-control-allow-methods'] !== undefined)
    result.preflightHeaderList = Object.entries(preflightHeaders(base)).flat();
  return result;
}

/** A precompressed variant written at build, if there is one and it is smaller than the file. */
function variantOnDisk(file: string, suffix: string, identityLength: number): OnDisk | undefined {
  const variantFile = `${file}${suffix}`;
  const stats = statSync(variantFile, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isFile()) return undefined;
  return stats.size < identityLength ? { path: variantFile, length: stats.size } : undefined;
}

/** Vary names what chose this representation: the encoding, then what the table named (Accept, for negotiated pages). */
function varyHeader(compressed: boolean, decided: string | undefined): Record<string, string> {
  const vary = [...(compressed ? ['Accept-Encoding'] : []), ...(decided === undefined ? [] : [decided])];
  return vary.length > 0 ? { vary: vary.join(', ') } : {};
}
