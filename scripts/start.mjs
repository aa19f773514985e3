// `npm start`: builds only when needed, then runs the compiled server in this process.
// Plain JavaScript with node's own modules, so a production install without dev dependencies
// can start a build it was shipped with.
//
// A build is needed when there is none, when the sources it was made from changed
// (scripts/source-hash.mjs), or when the server judges that its baked configuration does not
// match this environment (`dist/server/portfolio.mjs --check`, functions/config/baked-config.ts).
// First, so that an unsupported Node.js stops before anything else loads.
import './check-node.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceHash } from './source-hash.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MANIFEST = path.join(ROOT, 'dist', 'build-manifest.json');
const ENTRY = path.join(ROOT, 'dist', 'server', 'portfolio.mjs');

function reasonToBuild() {
  if (!existsSync(MANIFEST) || !existsSync(ENTRY)) return 'no build yet';
  const { sourceHash: built } = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  if (built !== sourceHash(ROOT)) return 'the sources changed since the last build';
  const check = spawnSync(process.execPath, [ENTRY, '--check'], { cwd: ROOT, encoding: 'utf8' });
  if (check.status !== 0) return check.stderr.trim() || 'the server refused the build';
  return null;
}

const reason = reasonToBuild();
if (reason === null) {
  process.stdout.write('start: the build matches the sources and this environment; not rebuilding.\n');
} else {
  process.stdout.write(`start: building (${reason})\n`);
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(ENTRY);
