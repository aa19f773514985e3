import { build } from 'esbuild';
import path from 'node:path';

/**
 * The script of an MCP Apps view (src/scripts/apps/<name>.ts) with everything it imports, its
 * hand-written bridge to the host included (host-bridge.ts there), as one minified script to
 * inline: a view is one self-contained document that reaches nothing outside it
 * (functions/mcp/app-views.ts). Bundled on each render (once per
 * view in a build), so `astro dev` shows an edit at once.
 */
export async function appViewScript(name: string): Promise<string> {
  const { outputFiles } = await build({
    // From the project root: Vite moves this module into a chunk of its own at build.
    entryPoints: [path.resolve(process.cwd(), 'src/scripts/apps', `${name}.ts`)],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  // Inline, the script must not end its own element early.
  return (outputFiles[0]?.text ?? '').replaceAll('</script', '<\\/script');
}
