import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { isCompressible, mediaTypeFor } from '../functions/hosts/static/media-types.ts';
import { type COMPRESSED_VARIANTS } from '../functions/hosts/static/built-files.ts';
import { buildCacheCounts, cachedOutput, contentKey } from '../src/lib/build-cache.ts';

/**
 * Part of `npm run build`: writes `<file>.br` and `<file>.gz` beside every compressible file of
 * the prerendered output, once, so the server only reads them at start (as lukeed/sirv serves
 * precompressed files). A variant that would not be smaller is not written; the server then
 * sends the file as it is.
 *
 * Brotli at quality 11 is the slow part (thousands of files at 2,000 projects): the asynchronous
 * zlib calls run on libuv's thread pool, one per core at a time, and each variant is kept in the
 * build cache under its input's hash (src/lib/build-cache.ts), so a rebuild compresses only the
 * files that changed.
 */
const ROOT = path.resolve(process.argv[2] ?? 'dist/client');
/** Smaller bodies gain nothing from compression once the headers are counted. */
const MIN_BYTES = 512;
/** libuv's pool has 4 threads unless UV_THREADPOOL_SIZE says otherwise; more than the cores only queues. */
const PARALLEL = Math.max(1, Math.min(availableParallelism(), Number(process.env.UV_THREADPOOL_SIZE) || 4));

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
type Suffix = (typeof COMPRESSED_VARIANTS)[keyof typeof COMPRESSED_VARIANTS];
/** Each variant's settings, part of its cache key: changing them makes new entries. */
const compressors: Record<Suffix, { settings: string; compress: (body: Buffer) => Promise<Buffer> }> = {
  '.gz': { settings: 'gzip level 9', compress: (body) => gzipAsync(body, { level: 9 }) },
  '.br': {
    settings: 'brotli quality 11',
    compress: (body) =>
      brotli(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
  },
};
const variantSuffixes = Object.keys(compressors);

/** Each compressible file with its body, largest first: the pool starts on the slowest, so no thread is left alone with a big one at the end. */
const files = readdirSync(ROOT, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => path.join(entry.parentPath, entry.name))
  .filter((file) => !variantSuffixes.includes(path.extname(file)))
  .filter((file) => isCompressible(mediaTypeFor(`/${path.relative(ROOT, file).split(path.sep).join('/')}`)))
  .map((file) => ({ file, body: readFileSync(file) }))
  .filter(({ body }) => body.length >= MIN_BYTES)
  .sort((a, b) => b.body.length - a.body.length);
/** One task per variant of each file, so a big file's two variants are made side by side. */
const tasks = files.flatMap(({ file, body }) =>
  Object.entries(compressors).map(([suffix, { settings, compress }]) => ({ file, body, suffix, settings, compress })),
);

let next = 0;
let written = 0;
async function worker(): Promise<void> {
  for (let task = tasks[next++]; task !== undefined; task = tasks[next++]) {
    const { file, body, suffix, settings, compress } = task;
    const bytes = await cachedOutput('precompress', contentKey([settings, body]), () => compress(body));
    if (bytes.length >= body.length) continue;
    writeFileSync(`${file}${suffix}`, bytes);
    written++;
  }
}
await Promise.all(Array.from({ length: PARALLEL }, worker));
const { made, reused } = buildCacheCounts('precompress');
process.stdout.write(
  `precompress: ${written} variants written under ${path.relative(process.cwd(), ROOT)} (${made} compressed, ${reused} from the build cache)\n`,
);
