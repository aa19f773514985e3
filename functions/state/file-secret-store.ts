import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makePrivateDir } from './private-files.ts';
import { SECRET_BYTES, SECRET_NAMES, type SecretName, type SecretStore } from './storage.ts';

/**
 * Secrets as files in DATA_DIR (`cursor.key`, `token.key`, `form.key`), made on first start: the
 * embedded engine's secret store, beside its database, whose files the backup and data:copy
 * commands read too. Keeping them on disk lets signed values stay valid across restarts; a new
 * data directory means new secrets. Where they cannot be written, they are kept in memory, and
 * their signatures end with the process.
 */
export class FileSecretStore implements SecretStore {
  /** Every secret this process made, so that one it could not write is still the one every caller gets. */
  private readonly made = new Map<SecretName, Buffer>();

  constructor(private readonly dataDir: string) {}

  async loadAll(): Promise<Record<SecretName, Buffer>> {
    return Object.fromEntries(SECRET_NAMES.map((name) => [name, this.loadOrCreate(name)])) as Record<
      SecretName,
      Buffer
    >;
  }

  private loadOrCreate(name: SecretName): Buffer {
    const kept = readSecretFile(this.dataDir, name) ?? this.made.get(name);
    if (kept !== undefined) return kept;
    const secret = createSecretFile(this.dataDir, name);
    this.made.set(name, secret);
    return secret;
  }
}

/** The secret kept in DATA_DIR, if there is one (a file of another length is not one, and is replaced). */
function readSecretFile(dataDir: string, name: SecretName): Buffer | undefined {
  try {
    const existing = readFileSync(secretFile(dataDir, name));
    if (existing.length === SECRET_BYTES) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return undefined;
}

/** Every secret kept in DATA_DIR; one never made (the deployment never signed with it) is absent. */
export function readSecretFiles(dataDir: string): Map<SecretName, Buffer> {
  const secrets = new Map<SecretName, Buffer>();
  for (const name of SECRET_NAMES) {
    const secret = readSecretFile(dataDir, name);
    if (secret !== undefined) secrets.set(name, secret);
  }
  return secrets;
}

/** Where a secret's file is in DATA_DIR. */
export function secretFile(dataDir: string, name: SecretName): string {
  return path.join(dataDir, `${name}.key`);
}

function createSecretFile(dataDir: string, name: SecretName): Buffer {
  const file = secretFile(dataDir, name);
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
