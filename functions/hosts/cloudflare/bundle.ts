import { isBuiltin } from 'node:module';
import { build, type BuildOptions, type Metafile } from 'esbuild';

/**
 * The Worker: workerd's nodejs_compat flag provides the node: modules, and the `workerd` export
 * condition makes pg use `cloudflare:sockets`.
 */
export async function bundleWorker(common: BuildOptions & { external: string[] }): Promise<Metafile | undefined> {
  const options: BuildOptions = {
    ...common,
    entryPoints: { 'cloudflare-worker': 'functions/hosts/cloudflare/worker.ts' },
    platform: 'node',
    target: 'es2023',
    conditions: ['workerd', 'worker'],
    external: [...common.external, 'cloudflare:*'],
  };
  const firstPass = await build({ ...options, write: false, banner: {} });
  const result = await build({ ...options, banner: { js: workerRequire(firstPass.metafile) } });
  return result.metafile;
}

/**
 * workerd gives a module no import.meta.url to make a require from, so the Worker's require is
 * made of imports: every Node.js built-in the bundled CommonJS asks for (found by a first pass),
 * imported from `node:` (nodejs_compat provides them; wrangler polyfills the rest).
 */
function workerRequire(firstPass: Metafile | undefined): string {
  const builtins = new Set<string>();
  for (const output of Object.values(firstPass?.outputs ?? {}))
    for (const { path, kind } of output.imports)
      if (kind === 'require-call' && isBuiltin(path)) builtins.add(path.replace(/^node:/, ''));
  return [
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
}
