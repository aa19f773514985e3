import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { strongEtag } from '../../http/etag.ts';
import type { HeaderTable, ServedFile } from '../static/built-file-headers.ts';
import { COMPRESSED_VARIANTS, preflightHeaders } from '../static/built-files.ts';

/** One encoding of a file with the headers it is always sent with. */
export interface StaticVariant {
  body: Buffer;
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

/**
 * The prerendered output, loaded into memory once at start with every header precomputed:
 * a request for a page or document costs a map lookup and a write. Which file answers which
 * path, and with which headers, is the build's header table (../static/built-file-headers.ts), the one
 * every host's rules are made from; this adds what a host computes from the bytes: the ETag,
 * the length, and the precompressed variants. Compression happened at build; start only reads
 * the `.br`/`.gz` files beside each file (a file without them is sent as it is), which keeps
 * start under a second. `404.html` and `404.md` answer for every missing path.
 */
export class StaticFiles {
  readonly files = new Map<string, StaticFile>();
  readonly notFoundPage: StaticFile | undefined;
  /** The 404 page's Markdown twin, for a missing path asked as Markdown. */
  readonly notFoundMarkdown: StaticFile | undefined;

  /** The Markdown twin of each page that has one (by clean URL), as the page's URL answers it. */
  private readonly negotiated = new Map<string, StaticFile>();

  constructor(root: string, table: HeaderTable) {
    // A file served at several paths, or with other headers at a page's URL, is read once.
    const contents = new Map<string, FileContents>();
    const load = (served: ServedFile) => {
      let read = contents.get(served.file);
      if (read === undefined) contents.set(served.file, (read = readContents(path.join(root, served.file))));
      return staticFile(read, served.headers);
    };
    for (const [urlPath, served] of table.paths) this.files.set(urlPath, load(served));
    for (const [urlPath, served] of table.negotiated) this.negotiated.set(urlPath, load(served));
    this.notFoundPage = table.notFound === undefined ? undefined : load(table.notFound);
    this.notFoundMarkdown = table.notFoundMarkdown === undefined ? undefined : load(table.notFoundMarkdown);
  }

  get(urlPath: string): StaticFile | undefined {
    return this.files.get(urlPath);
  }

  /** The Markdown twin of a page, as its URL answers `Accept: text/markdown` (its own caching: the header table's). */
  markdownTwin(urlPath: string): StaticFile | undefined {
    return this.negotiated.get(urlPath);
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

/** A file's bytes, its tag and the precompressed variants the build wrote beside it. */
interface FileContents {
  body: Buffer;
  etag: string;
  br: Buffer | undefined;
  gzip: Buffer | undefined;
}

function readContents(file: string): FileContents {
  const body = readFileSync(file);
  return {
    body,
    etag: strongEtag(body),
    br: readVariant(file, COMPRESSED_VARIANTS.br, body.length),
    gzip: readVariant(file, COMPRESSED_VARIANTS.gzip, body.length),
  };
}

function staticFile({ body, etag, br, gzip }: FileContents, decided: Readonly<Record<string, string>>): StaticFile {
  const { vary, ...rest } = decided;
  const base: Record<string, string> = {
    ...rest,
    etag,
    ...varyHeader(br !== undefined || gzip !== undefined, vary),
  };
  const variant = (bytes: Buffer, encoding?: string): StaticVariant => {
    const headers = {
      ...base,
      'content-length': String(bytes.length),
      ...(encoding ? { 'content-encoding': encoding } : {}),
    };
    return { body: bytes, headers, headerList: Object.entries(headers).flat() };
  };
  const { 'content-type': _type, ...notModified } = base;
  const result: StaticFile = {
    etag,
    notModifiedHeaderList: Object.entries(notModified).flat(),
    identity: variant(body),
  };
  if (gzip !== undefined) result.gzip = variant(gzip, 'gzip');
  if (br !== undefined) result.br = variant(br, 'br');
  if (base['access-control-allow-methods'] !== undefined)
    result.preflightHeaderList = Object.entries(preflightHeaders(base)).flat();
  return result;
}

/** A precompressed variant written at build, if there is one and it is smaller than the file. */
function readVariant(file: string, suffix: string, identityLength: number): Buffer | undefined {
  const variantFile = `${file}${suffix}`;
  if (!existsSync(variantFile)) return undefined;
  const bytes = readFileSync(variantFile);
  return bytes.length < identityLength ? bytes : undefined;
}

/** Vary names what chose this representation: the encoding, then what the table named (Accept, for negotiated pages). */
function varyHeader(compressed: boolean, decided: string | undefined): Record<string, string> {
  const vary = [...(compressed ? ['Accept-Encoding'] : []), ...(decided === undefined ? [] : [decided])];
  return vary.length > 0 ? { vary: vary.join(', ') } : {};
}
