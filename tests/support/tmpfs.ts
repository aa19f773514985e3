import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A small tmpfs of its own, to fill up or make read-only; mounting needs the root the build machines run tests as. */
export function mountTmpfs(sizeKiB: number): string | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-fs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    return null;
  }
}

/** Whether this run may mount a tmpfs (tests that need one skip otherwise). */
export const CAN_MOUNT = (() => {
  const dir = mountTmpfs(64);
  if (dir === null) return false;
  execFileSync('umount', [dir]);
  return true;
})();

/** Makes a mounted tmpfs read-only (`ro`) or writable again (`rw`). */
export function remount(dir: string, mode: 'ro' | 'rw'): void {
  execFileSync('mount', ['-o', `remount,${mode}`, dir]);
}

/** Unmounts a tmpfs, even one still in use (lazily). */
export function unmount(dir: string): void {
  execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
}
