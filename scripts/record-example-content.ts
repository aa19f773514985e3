import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { contentHash, EXAMPLE_HASHES_FILE, exampleFilesIn, exampleHashes } from './init/example-content.ts';

/**
 * Records the current example content (content/site.json and every file under content/projects)
 * in scripts/init/example-content.json, keeping the hashes of earlier versions so that an older
 * clone can still be initialized. Run it after changing an example file; a unit test says when.
 */
const root = path.join(import.meta.dirname, '..');
const hashes = exampleHashes();
for (const file of exampleFilesIn(root)) {
  const hash = contentHash(path.join(root, file));
  const known = hashes[file] ?? [];
  if (!known.includes(hash)) hashes[file] = [...known, hash];
}
const sorted = Object.fromEntries(Object.entries(hashes).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(EXAMPLE_HASHES_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
