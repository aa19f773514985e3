import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SECRET_BYTES = 32;

/**
 * A per-deployment secret kept in DATA_DIR, made on first start. Keeping it on disk lets
 * signed values (cursors) stay valid across restarts; a new data directory means new secrets.
 */
export function loadOrCreateSecret(dataDir: string, name: string): Buffer {
  const file = path.join(dataDir, name);
  try {
    const existing = readFileSync(file);
    if (existing.length === SECRET_BYTES) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(SECRET_BYTES);
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
