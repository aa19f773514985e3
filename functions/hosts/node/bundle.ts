import { build } from 'esbuild';

const BANNER = [
  // The first import, so evaluated before anything else in the bundle: an unsupported Node.js stops
  // here with one line (scripts/check-node.mjs, which reads package.json; dist/server is two below it).
  "import '../../scripts/check-node.mjs';",
  // Bundled CommonJS dependencies call require(); an ES module has none of its own.
  "import { createRequire as __createRequire } from 'node:module';",
  'const require = __createRequire(import.meta.url);',
].join('\n');

/**
 * The production entry and the owner's CLIs (inbox, data-copy, backup, restore), each compiled
 * into one ES module under dist/server, so production runs `node dist/server/portfolio.mjs` with
 * no TypeScript compiler at run time and loads one file instead of hundreds. better-sqlite3 stays
 * external: it is a native addon, loaded from node_modules only when SQLite is the engine; so do
 * the Redis and PostgreSQL drivers, loaded only when REDIS_URL or DATABASE_URL selects them.
 */
export async function bundleServer(): Promise<void> {
  await build({
    entryPoints: {
      portfolio: 'functions/hosts/node/main.ts',
      inbox: 'functions/cli/inbox.ts',
      'data-copy': 'functions/cli/data-copy.ts',
      backup: 'functions/cli/backup.ts',
      restore: 'functions/cli/restore.ts',
    },
    outdir: 'dist/server',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3', 'ioredis', 'pg', 'rate-limiter-flexible'],
    banner: { js: BANNER },
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  });
}
