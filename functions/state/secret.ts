import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makePrivateDir } from './private-files.ts';

const SECRET_BYTES = 32;

/**
 * A per-deployment secret kept in DATA_DIR, made on first start. Keeping it on disk lets
 * signed values (cursors) stay valid across restarts; a new data directory means new secrets.
 * Where it cannot be written, it is kept in memory, and its signatures end with the process.
 */
export function loadOrCreateSecret(dataDir: string, name: string): Buffer {
  const file = path.join(dataDir, name);
  try {
    const existing = readFileSync(file);
    if (existing.length === SECRET_BYTES) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(SECRET_BYTES);
  try {
    makePrivateDir(dataDir);
    writeFileSync(file, secret, { mode: 0o600 });
  } catch (error) {
    // A read-only or full DATA_DIR: the secret lives as long as this process does.
    if (!['EROFS', 'EACCES', 'EPERM', 'ENOSPC'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
  return secret;
}
