import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { BuildOptions, Metafile, Plugin } from 'esbuild';
import { loadBuild } from '../static/build-output.ts';
import { buildDataOf } from './build-data.ts';

/** Where `npm run build` writes the function bundles, each host's in its own file or folder. */
export const FUNCTIONS_OUT = 'dist/functions';

/** The module name the entries import the build's data by (./build-data-module.d.ts). */
const BUILD_DATA = 'portfolio:build-data';

/** The build's data (projects, docs, search index, page templates, MCP Apps views) as a module the bundle carries. */
function embedBuildData(distDir: string): Plugin {
  const buildData = JSON.stringify(buildDataOf(loadBuild(distDir)));
  return {
    name: 'embed-build-data',
    setup(plugin) {
      plugin.onResolve({ filter: /^portfolio:build-data$/ }, () => ({ path: BUILD_DATA, namespace: 'build-data' }));
      plugin.onLoad({ filter: /.*/, namespace: 'build-data' }, () => ({ contents: buildData, loader: 'json' }));
    },
  };
}

/** Bundled CommonJS dependencies call require(); an ES module has none of its own. */
const REQUIRE_BANNER = [
  "import { createRequire as __createRequire } from 'node:module';",
  'const require = __createRequire(import.meta.url);',
].join('\n');

/**
 * The esbuild options every function bundle starts from: one ES module with the build's data
 * embedded (a function cannot count on reading dist/ at run time) and the drivers the engines
 * load with `import()` (pg, ioredis, rate-limiter-flexible) inside it. better-sqlite3 stays out:
 * a function refuses the embedded engines.
 */
export function functionBundleOptions(distDir: string): BuildOptions & { external: string[] } {
  return {
    bundle: true,
    format: 'esm',
    outdir: FUNCTIONS_OUT,
    outExtension: { '.js': '.mjs' },
    external: ['better-sqlite3'],
    plugins: [embedBuildData(distDir)],
    banner: { js: REQUIRE_BANNER },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  };
}

/** Each output's size (raw and gzip) and its twelve largest inputs, grouped by package. */
export function bundleReport(metafile: Metafile | undefined) {
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
  if (input.includes(BUILD_DATA)) return 'build data (projects, docs, search index, page templates, app views)';
  const own = /^functions\/([^/]+)\//.exec(input);
  return own ? `functions/${own[1]}` : input;
}
