import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { loadConfig } from '../functions/config/env.ts';
import { deploysFunctions, filesAtServicePaths, netlifyFunctionPaths } from '../functions/hosts/static/function-routes.ts';
import { loadBuild } from '../functions/hosts/static/build-output.ts';
import { buildDataOf } from '../functions/hosts/fetch/build-data.ts';

/**
 * Part of `npm run build`, after the manifest (which it embeds): one ES module per function host under dist/functions, each the
 * service's fetch handler with the build's data embedded (a function cannot count on reading
 * dist/ at run time). Netlify and Vercel run them on Node.js; the Worker runs on workerd, whose
 * nodejs_compat flag provides the node: modules, and whose `workerd` export condition makes pg
 * use `cloudflare:sockets`. better-sqlite3 stays out: a function refuses the embedded engines.
 * Writes dist/functions/bundle-report.json: each bundle's size and its largest inputs.
 */
const DIST = 'dist';
const OUT = `${DIST}/functions`;
const BUILD_DATA = 'portfolio:build-data';

const buildData = JSON.stringify(buildDataOf(loadBuild(DIST)));
const embedBuildData: Plugin = {
  name: 'embed-build-data',
  setup(plugin) {
    plugin.onResolve({ filter: /^portfolio:build-data$/ }, () => ({ path: BUILD_DATA, namespace: 'build-data' }));
    plugin.onLoad({ filter: /.*/, namespace: 'build-data' }, () => ({ contents: buildData, loader: 'json' }));
  },
};

// Bundled CommonJS dependencies call require(); an ES module has none of its own.
const REQUIRE_BANNER = [
  "import { createRequire as __createRequire } from 'node:module';",
  'const require = __createRequire(import.meta.url);',
].join('\n');

/**
 * The engines load their drivers through createRequire (functions/state/postgres/pg-driver.ts,
 * functions/limits/redis-limiter.ts), which keeps them out of the server bundle and reads them
 * from node_modules at run time. A function has no node_modules (a Worker has no file system at
 * all), so here their `node:module` is one whose createRequire answers from the bundle itself.
 */
const DRIVER_LOADERS = /functions\/(state\/postgres\/pg-driver|limits\/redis-limiter)\.ts$/;
const bundleDrivers: Plugin = {
  name: 'bundle-drivers',
  setup(plugin) {
    plugin.onResolve({ filter: /^node:module$/ }, ({ importer }) =>
      DRIVER_LOADERS.test(importer) ? { path: 'drivers', namespace: 'bundled-drivers' } : undefined,
    );
    plugin.onLoad({ filter: /.*/, namespace: 'bundled-drivers' }, () => ({
      loader: 'js',
      resolveDir: process.cwd(),
      contents: [
        'const drivers = {',
        "  pg: () => require('pg'),",
        "  ioredis: () => require('ioredis'),",
        "  'rate-limiter-flexible': () => require('rate-limiter-flexible'),",
        '};',
        'exports.createRequire = () => (name) => {',
        '  const load = drivers[name];',
        '  if (load === undefined) throw new Error(`${name} is not bundled with the function`);',
        '  return load();',
        '};',
      ].join('\n'),
    }));
  },
};

const common: BuildOptions & { external: string[] } = {
  bundle: true,
  format: 'esm',
  outdir: OUT,
  outExtension: { '.js': '.mjs' },
  external: ['better-sqlite3'],
  plugins: [embedBuildData, bundleDrivers],
  banner: { js: REQUIRE_BANNER },
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
};

rmSync(OUT, { recursive: true, force: true });
const node = await build({
  ...common,
  entryPoints: { vercel: 'functions/hosts/vercel/function.ts', 'vercel-cron': 'functions/hosts/vercel/cron.ts' },
  platform: 'node',
  target: 'node20',
});

/**
 * Netlify's functions, each a folder (Netlify docs, "Functions" > "Get started": a subdirectory
 * whose entry file has its name) holding the bundle and an entry whose `config` is a literal
 * `export const config = {...}`, the one form Netlify reads without running the file
 * ("Functions" > "Configuration"), and which the bundle, having a `config` of its own at the
 * top level, cannot carry. Written only when the build deploys functions (deploysFunctions);
 * otherwise the folder stays empty and the pages' host serves /contact and /search from their files.
 */
const NETLIFY_DIR = `${OUT}/netlify`;
mkdirSync(NETLIFY_DIR, { recursive: true });
const netlifyFunctions = [
  { name: 'portfolio', entry: 'functions/hosts/netlify/function.ts', config: { path: netlifyFunctionPaths() } },
  // Every minute: Netlify docs, "Scheduled Functions" (cron syntax, UTC).
  { name: 'scheduled', entry: 'functions/hosts/netlify/scheduled.ts', config: { schedule: '* * * * *' } },
];
const netlify = deploysFunctions(loadConfig())
  ? await Promise.all(
      netlifyFunctions.map(async ({ name, entry, config }) => {
        const dir = `${NETLIFY_DIR}/${name}`;
        const result = await build({
          ...common,
          entryPoints: { service: entry },
          outdir: dir,
          platform: 'node',
          target: 'node20',
        });
        const shim = [
          '// Made by npm run build (scripts/bundle-functions.ts); do not edit.',
          "import service from './service.mjs';",
          'export default service;',
          `export const config = ${JSON.stringify(config)};`,
        ];
        writeFileSync(`${dir}/${name}.mjs`, `${shim.join('\n')}\n`);
        return result;
      }),
    )
  : [];

const workerOptions: BuildOptions = {
  ...common,
  entryPoints: { 'cloudflare-worker': 'functions/hosts/cloudflare/worker.ts' },
  platform: 'node',
  target: 'es2023',
  conditions: ['workerd', 'worker'],
  external: [...common.external, 'cloudflare:*'],
};
/**
 * workerd gives a module no import.meta.url to make a require from, so the Worker's require is
 * made of imports: every Node.js built-in the bundled CommonJS asks for (found by a first pass),
 * imported from `node:` (nodejs_compat provides them; wrangler polyfills the rest).
 */
const firstPass = await build({ ...workerOptions, write: false, banner: {} });
const builtins = new Set<string>();
for (const output of Object.values(firstPass.metafile?.outputs ?? {}))
  for (const { path, kind } of output.imports)
    if (kind === 'require-call' && isBuiltin(path)) builtins.add(path.replace(/^node:/, ''));
const workerRequire = [
  ...[...builtins].map((name, index) => `import * as __builtin${index} from 'node:${name}';`),
  'const __builtins = {',
  ...[...builtins].map((name, index) => `  ${JSON.stringify(name)}: __builtin${index},`),
  '};',
  'const require = (name) => {',
  "  const module = __builtins[name.replace(/^node:/, '')];",
  '  if (module === undefined) throw new Error(`${name} is not available in the Worker`);',
  '  return module.default ?? module;',
  '};',
].join('\n');
const worker = await build({ ...workerOptions, banner: { js: workerRequire } });

/** Each output's size (raw and gzip) and its ten largest inputs, grouped by package. */
function report(metafile: Metafile | undefined) {
  if (metafile === undefined) throw new Error('esbuild made no metafile');
  return Object.entries(metafile.outputs).map(([file, output]) => {
    const byPackage = new Map<string, number>();
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(input);
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
    return {
      file,
      bytes: output.bytes,
      gzipBytes: gzipSync(readFileSync(file)).length,
      largestInputs: [...byPackage]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([name, bytes]) => ({ name, bytes })),
    };
  });
}

/** node_modules/pg/lib/x.js → pg; an own file → its folder under functions/; the build data → itself. */
function packageOf(input: string): string {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (inModules) return inModules[1] as string;
  if (input.includes(BUILD_DATA)) return 'build data (projects, docs, search index, page templates)';
  const own = /^functions\/([^/]+)\//.exec(input);
  return own ? `functions/${own[1]}` : input;
}

mkdirSync(OUT, { recursive: true });

/**
 * On Vercel (which sets VERCEL=1 in its builds: Vercel docs, "System environment variables") a
 * file wins over a rewrite (vercel/vercel, packages/routing-utils, getTransformedRoutes: the
 * filesystem is checked before the rewrites), so the built files at the function's paths (the
 * /contact and /search pages the function fills in) leave the output, else the function would
 * never see their requests.
 */
if (process.env.VERCEL === '1' && deploysFunctions(loadConfig())) {
  const removed = filesAtServicePaths(`${DIST}/client`);
  for (const file of removed) rmSync(file);
  process.stdout.write(`function bundles: on Vercel, ${removed.length} built files at the function's paths left out\n`);
}
writeFileSync(
  `${OUT}/bundle-report.json`,
  `${JSON.stringify([...report(node.metafile), ...report(worker.metafile)], null, 2)}\n`,
);
process.stdout.write(
  `function bundles: ${OUT}/{vercel,vercel-cron,cloudflare-worker}.mjs${netlify.length > 0 ? ', netlify/{portfolio,scheduled}.mjs' : ' (no Netlify functions: DATABASE_URL and REDIS_URL unset, or the dynamic paths proxied)'}\n`,
);
