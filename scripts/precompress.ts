import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isCompressible, mediaTypeFor } from '../functions/hosts/static/media-types.ts';
import { type COMPRESSED_VARIANTS } from '../functions/hosts/static/built-files.ts';

/**
 * Part of `npm run build`: writes `<file>.br` and `<file>.gz` beside every compressible file of
 * the prerendered output, once, so the server only reads them at start (as lukeed/sirv serves
 * precompressed files). A variant that would not be smaller is not written; the server then
 * sends the file as it is.
 */
const ROOT = path.resolve(process.argv[2] ?? 'dist/client');
/** Smaller bodies gain nothing from compression once the headers are counted. */
const MIN_BYTES = 512;

const compressors: Record<(typeof COMPRESSED_VARIANTS)[keyof typeof COMPRESSED_VARIANTS], (body: Buffer) => Buffer> = {
  '.gz': (body) => gzipSync(body, { level: 9 }),
  '.br': (body) =>
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
};
const variantSuffixes = Object.keys(compressors);

let written = 0;
for (const entry of readdirSync(ROOT, { recursive: true, withFileTypes: true })) {
  const file = path.join(entry.parentPath, entry.name);
  if (!entry.isFile() || variantSuffixes.includes(path.extname(file))) continue;
  const body = readFileSync(file);
  const urlPath = `/${path.relative(ROOT, file).split(path.sep).join('/')}`;
  if (body.length < MIN_BYTES || !isCompressible(mediaTypeFor(urlPath))) continue;
  for (const [suffix, compress] of Object.entries(compressors)) {
    const bytes = compress(body);
    if (bytes.length >= body.length) continue;
    writeFileSync(`${file}${suffix}`, bytes);
    written++;
  }
}
process.stdout.write(`precompress: ${written} variants written under ${path.relative(process.cwd(), ROOT)}\n`);
