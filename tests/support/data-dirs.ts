import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The data folders this test file made, removed once it has run (tests/support/remove-data-dirs.ts). */
const made: string[] = [];

export function freshDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-test-'));
  made.push(dir);
  return dir;
}

export function removeDataDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
