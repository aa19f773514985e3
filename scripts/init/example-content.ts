import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The example's files, each with the SHA-256 of every version it has been published in. `npm run
 * init` deletes or replaces only files that still hold one of them, so it never loses an owner's
 * edit. Kept in the repository rather than asked of git: a fork may have committed its edits.
 * `node --import tsx scripts/record-example-content.ts` adds the current versions.
 */
export const EXAMPLE_HASHES_FILE = path.join(import.meta.dirname, 'example-content.json');

export type ExampleHashes = Record<string, string[]>;

export function exampleHashes(): ExampleHashes {
  return JSON.parse(readFileSync(EXAMPLE_HASHES_FILE, 'utf8')) as ExampleHashes;
}

/** A file's content hash, line endings normalized so a checkout with CRLF matches too. */
export function contentHash(file: string): string {
  const bytes = readFileSync(file);
  const text = bytes.toString('latin1');
  const normalized = /\.(md|json)$/.test(file) ? Buffer.from(text.replace(/\r\n/g, '\n'), 'latin1') : bytes;
  return createHash('sha256').update(normalized).digest('hex');
}

/** The example's files as paths relative to `root`: site.json, and each project with its images. */
export function exampleFilesIn(root: string): string[] {
  const projects = path.join(root, 'content/projects');
  const files = existsSync(projects)
    ? readdirSync(projects, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    : [];
  return ['content/site.json', ...files].sort();
}
