// Stops the process at once, with one line, when this Node.js is older than package.json's
// `engines.node`, before anything native loads (the SQLite addon crashes an unsupported Node.js
// instead of failing). Imported first by scripts/start.mjs, by every bundle under dist/server
// (scripts/bundle-server.ts) and by the owner's CLI scripts (`--import`), and run first by
// `npm test` and `npm run build`: an ES module's imports are evaluated in order, before the
// importing module's own code.
// Plain JavaScript with node's own modules and no syntax newer than Node.js 18, so an old Node.js
// can read it.
import { readFileSync } from 'node:fs';
import { PRIMARY_MAJOR } from './fetch-node.mjs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const range = engines.node;
const minimum = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range);
if (minimum === null) {
  process.stderr.write(`check-node: engines.node in package.json must read ">=major.minor.patch", not "${range}"\n`);
  process.exit(1);
}
const wanted = minimum.slice(1).map((part) => Number(part ?? 0));
const running = process.versions.node.split('.').map(Number);
const older = wanted.reduce(
  (decided, part, index) => decided ?? (running[index] === part ? null : running[index] < part),
  null,
);
if (older === true) {
  process.stderr.write(
    `This project needs Node.js ${range}; this is Node.js ${process.version}. ` +
      `Run \`source scripts/use-node.sh\` to use the pinned Node.js ${PRIMARY_MAJOR} LTS in this shell, or install Node.js ${PRIMARY_MAJOR} LTS.\n`,
  );
  process.exit(1);
}
