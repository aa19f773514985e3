// The fingerprint of what `npm run build` reads: the owner's content, the site, the backend, the
// build scripts and the locked dependencies. scripts/write-build-manifest.ts records it in the build;
// scripts/start.mjs rebuilds when it differs. Plain JavaScript, so `npm start` needs no compiler.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Folders and files inside the project whose content the build output depends on. */
export const BUILD_SOURCES = [
  'content',
  'src',
  'functions',
  'public',
  'scripts',
  'astro.config.mjs',
  'package-lock.json',
  'tsconfig.json',
];

/** SHA-256 over every source file's path and bytes, in a fixed order (hex). */
export function sourceHash(root) {
  const hash = createHash('sha256');
  for (const relative of BUILD_SOURCES.flatMap((source) => filesUnder(root, source)).sort()) {
    hash.update(`${relative}\0`);
    hash.update(readFileSync(path.join(root, relative)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function filesUnder(root, source) {
  const full = path.join(root, source);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [source];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}
