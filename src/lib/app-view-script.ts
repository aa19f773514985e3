import { build, type Plugin } from 'esbuild';
import path from 'node:path';

/**
 * zod's `z` namespace re-exports every locale (some 200 kB minified); the views' messages are
 * never shown to anyone, so only the English one zod configures by default is kept.
 */
const englishOnly: Plugin = {
  name: 'zod-english-only',
  setup(plugin) {
    plugin.onLoad({ filter: /zod[/\\]v4[/\\]locales[/\\]index\.js$/ }, () => ({
      contents: "export { default as en } from './en.js';",
      loader: 'js',
    }));
  },
};

/**
 * The script of an MCP Apps view (src/scripts/apps/<name>.ts) with the ext-apps App class and
 * everything it imports, as one minified script to inline: a view is one self-contained document
 * that reaches nothing outside it (functions/mcp/app-views.ts). Bundled on each render (once per
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
    plugins: [englishOnly],
  });
  // Inline, the script must not end its own element early.
  return (outputFiles[0]?.text ?? '').replaceAll('</script', '<\\/script');
}
