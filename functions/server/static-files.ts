import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BUILT_ELSEWHERE, DOCUMENT_ALIASES } from '../docs/discovery-documents.ts';
import { strongEtag } from '../http/etag.ts';
import { appendLink, markdownAlternateLink } from '../pages/markdown-twin.ts';
import { mediaTypeFor } from './media-types.ts';

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
 * The suffix of each precompressed variant the build writes beside a file (scripts/precompress.ts),
 * by its content coding (RFC 9110 section 8.4.1).
 */
export const COMPRESSED_VARIANTS = { br: '.br', gzip: '.gz' } as const;
const VARIANT_SUFFIXES: readonly string[] = Object.values(COMPRESSED_VARIANTS);
/** The not-found page and its Markdown twin, kept aside rather than served at their own paths. */
const NOT_FOUND: ReadonlySet<string> = new Set(['/404.html', '/404.md']);

/**
 * The prerendered output, loaded into memory once at start with every header precomputed:
 * a request for a page or document costs a map lookup and a write. Compression happened at
 * build; start only reads the `.br`/`.gz` files beside each file (a file without them is sent
 * as it is), which keeps start under a second.
 * `pages/x.html` is served at the clean URL `/pages/x`; a document the build could not write at
 * its URL (BUILT_ELSEWHERE) at that URL only; other files at their own path.
 * A page with a Markdown twin (`x.md` beside `x.html`) advertises it in a Link header. An alias
 * (DOCUMENT_ALIASES) is served as the document it names.
 * `404.html` and `404.md` live at no address: they answer for every missing path.
 */
export class StaticFiles {
  readonly files = new Map<string, StaticFile>();
  readonly notFoundPage: StaticFile | undefined;
  /** The 404 page's Markdown twin, for a missing path asked as Markdown. */
  readonly notFoundMarkdown: StaticFile | undefined;

  /** Pages (by clean URL) that have a Markdown twin, and the twin's path. */
  private readonly twins = new Map<string, string>();

  /**
   * `extraHeaders` gives the headers to add to a path (Link headers on the home page, say);
   * `siteUrl` makes the twins' Link targets absolute, like the `<link>` in each page's head.
   */
  constructor(
    root: string,
    commonHeaders: Record<string, string>,
    extraHeaders: (urlPath: string) => Record<string, string> | undefined = () => undefined,
    siteUrl = '',
  ) {
    const relatives = listFiles(root);
    const urlPaths = new Set(relatives.map((relative) => `/${relative.split(path.sep).join('/')}`));
    for (const urlPath of urlPaths) {
      if (!urlPath.endsWith('.html')) continue;
      const twin = urlPath === '/index.html' ? '/index.md' : urlPath.replace(/\.html$/, '.md');
      if (urlPaths.has(twin)) this.twins.set(NOT_FOUND.has(urlPath) ? urlPath : cleanUrl(urlPath), twin);
    }
    const negotiated = new Set([...this.twins.keys(), ...this.twins.values()]);
    let notFound: StaticFile | undefined;
    let notFoundMarkdown: StaticFile | undefined;
    for (const urlPath of urlPaths) {
      const clean = BUILT_ELSEWHERE[urlPath] ?? (NOT_FOUND.has(urlPath) ? urlPath : cleanUrl(urlPath));
      const headers = { ...commonHeaders, ...extraHeaders(clean) };
      const twin = this.twins.get(clean);
      if (twin !== undefined) headers.link = appendLink(headers.link, markdownAlternateLink(`${siteUrl}${twin}`));
      const file = loadFile(path.join(root, urlPath), urlPath, headers, negotiated.has(clean));
      if (urlPath === '/404.html') notFound = file;
      else if (urlPath === '/404.md') notFoundMarkdown = file;
      else this.files.set(clean, file);
    }
    this.notFoundPage = notFound;
    this.notFoundMarkdown = notFoundMarkdown;
    for (const [alias, target] of Object.entries(DOCUMENT_ALIASES)) {
      const file = this.files.get(target);
      if (file !== undefined) this.files.set(alias, file);
    }
  }

  get(urlPath: string): StaticFile | undefined {
    return this.files.get(urlPath);
  }

  /** The Markdown twin of a page, for `Accept: text/markdown`. */
  markdownTwin(urlPath: string): StaticFile | undefined {
    const twin = this.twins.get(urlPath);
    return twin === undefined ? undefined : this.files.get(twin);
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

function cleanUrl(urlPath: string): string {
  if (urlPath === '/index.html') return '/';
  return urlPath.endsWith('.html') ? urlPath.slice(0, -'.html'.length) : urlPath;
}

function cacheControlFor(urlPath: string): string {
  // Astro fingerprints everything under /_astro, so those bytes never change at that URL.
  if (urlPath.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  if (urlPath.endsWith('.html')) return 'public, max-age=0, must-revalidate';
  return 'public, max-age=300, stale-while-revalidate=3600';
}

function loadFile(
  file: string,
  urlPath: string,
  commonHeaders: Record<string, string>,
  negotiated: boolean,
): StaticFile {
  const body = readFileSync(file);
  const etag = strongEtag(body);
  const br = readVariant(file, COMPRESSED_VARIANTS.br, body.length);
  const gzip = readVariant(file, COMPRESSED_VARIANTS.gzip, body.length);
  const base: Record<string, string> = {
    ...commonHeaders,
    'content-type': mediaTypeFor(urlPath),
    'cache-control': cacheControlFor(urlPath),
    etag,
    ...varyHeader(br !== undefined || gzip !== undefined, negotiated),
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
  if (base['access-control-allow-methods'] !== undefined) result.preflightHeaderList = preflightHeaders(base);
  return result;
}

/** The headers of a 204 preflight answer: everything but the representation's own (type, validators, caching). */
function preflightHeaders(headers: Record<string, string>): readonly string[] {
  const { 'content-type': _type, etag: _etag, 'cache-control': _cache, vary: _vary, ...rest } = headers;
  return Object.entries(rest).flat();
}

/** A precompressed variant written at build, if there is one and it is smaller than the file. */
function readVariant(file: string, suffix: string, identityLength: number): Buffer | undefined {
  const variantFile = `${file}${suffix}`;
  if (!existsSync(variantFile)) return undefined;
  const bytes = readFileSync(variantFile);
  return bytes.length < identityLength ? bytes : undefined;
}

/** Vary names what chose this representation: the encoding, and for pages with a Markdown twin, Accept. */
function varyHeader(compressed: boolean, negotiated: boolean): Record<string, string> {
  const vary = [...(compressed ? ['Accept-Encoding'] : []), ...(negotiated ? ['Accept'] : [])];
  return vary.length > 0 ? { vary: vary.join(', ') } : {};
}

function listFiles(root: string): string[] {
  return (
    readdirSync(root, { recursive: true, withFileTypes: true })
      // A precompressed variant is served in place of its file, never at its own path.
      .filter((entry) => entry.isFile() && !VARIANT_SUFFIXES.includes(path.extname(entry.name)))
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
  );
}
