import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';

/**
 * DATA_DIR holds names, email addresses, messages and secrets: only the service's own user may
 * read it. A directory we create is 0700; one that exists already keeps the mode its owner gave it.
 */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * Creates the file if it is missing and makes it 0600 whatever the umask (chmod, not the
 * creation mode, which the umask could only narrow, and which an existing file would not get).
 * A missing file is skipped when `create` is false; a file of another user keeps its mode,
 * since only its owner may change it.
 */
export function makePrivateFile(file: string, create = true): void {
  if (create) closeSync(openSync(file, 'a', 0o600));
  try {
    chmodSync(file, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && !(code === 'ENOENT' && !create)) throw error;
  }
}
