import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A content-addressed cache for what the build makes slowly (Open Graph images, precompressed
 * variants): an output is stored under the hash of every input that decides it, so an unchanged
 * input is read back instead of made again, and a changed one gets a new key. Nothing is ever
 * invalidated: a stale entry is only an unused file.
 *
 * It lives beside Astro's own cache, in `node_modules/.astro/`, the one folder all three hosts keep
 * between builds: Cloudflare Pages keeps exactly `node_modules/.astro` for an Astro project (and not
 * `node_modules/.cache`; Cloudflare Pages docs, "Build caching" > "Frameworks"), Netlify and Vercel
 * keep `node_modules`. BUILD_CACHE_DIR puts it elsewhere.
 */
const BUILD_CACHE_DEFAULT = 'node_modules/.astro/portfolio-build-cache';

/** The folder of one kind of output (`og`, `precompress`), resolved when asked so a test can point it elsewhere. */
export function buildCacheDir(kind: string): string {
  return path.resolve(process.env.BUILD_CACHE_DIR || BUILD_CACHE_DEFAULT, kind);
}

/** The key of a list of inputs: each is length-prefixed, so `['ab', 'c']` and `['a', 'bc']` differ. */
export function contentKey(inputs: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const input of inputs) {
    const bytes = typeof input === 'string' ? Buffer.from(input) : input;
    hash.update(`${bytes.length}:`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}

/** How many outputs of each kind were made and how many were read back, in this process. */
export interface BuildCacheCounts {
  made: number;
  reused: number;
}

// On globalThis: Astro renders the pages from a bundle of its own, and the integration that reports
// the counts at the end of the build loads this module separately.
const COUNTS_KEY = Symbol.for('agent-ready-portfolio.build-cache-counts');
function allCounts(): Map<string, BuildCacheCounts> {
  const holder = globalThis as { [COUNTS_KEY]?: Map<string, BuildCacheCounts> };
  return (holder[COUNTS_KEY] ??= new Map());
}

export function buildCacheCounts(kind: string): BuildCacheCounts {
  const counts = allCounts();
  let entry = counts.get(kind);
  if (entry === undefined) {
    entry = { made: 0, reused: 0 };
    counts.set(kind, entry);
  }
  return entry;
}

function readCached(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The output stored under `key`, or `make()`'s, stored for next time. Written to a temporary name
 * and renamed, so a build stopped halfway never leaves a truncated entry under a real key.
 */
export async function cachedOutput(kind: string, key: string, make: () => Promise<Buffer>): Promise<Buffer> {
  const file = path.join(buildCacheDir(kind), key.slice(0, 2), key);
  const counts = buildCacheCounts(kind);
  const stored = readCached(file);
  if (stored !== undefined) {
    counts.reused++;
    return stored;
  }
  const made = await make();
  counts.made++;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${counts.made}.tmp`;
  writeFileSync(temporary, made);
  renameSync(temporary, file);
  return made;
}
