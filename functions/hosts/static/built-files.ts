import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The suffix of each precompressed variant the build writes beside a file (scripts/precompress.ts),
 * by its content coding (RFC 9110 section 8.4.1).
 */
export const COMPRESSED_VARIANTS = { br: '.br', gzip: '.gz' } as const;
const VARIANT_SUFFIXES: readonly string[] = Object.values(COMPRESSED_VARIANTS);

/** The files of the client dir as URL paths (`/pages/x.html`), without the precompressed variants. */
export function listBuiltFiles(root: string): string[] {
  return (
    readdirSync(root, { recursive: true, withFileTypes: true })
      // A precompressed variant is served in place of its file, never at its own path.
      .filter((entry) => entry.isFile() && !VARIANT_SUFFIXES.includes(path.extname(entry.name)))
      .map((entry) => `/${path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`)
  );
}

/**
 * The headers of a 204 preflight answer: everything but the representation's own (type, validators,
 * caching); the Node server and the nginx site answer preflights with the same.
 */
export function preflightHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const { 'content-type': _type, etag: _etag, 'cache-control': _cache, vary: _vary, ...rest } = headers;
  return rest;
}
