import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readmeCommands } from '../support/readme-commands.ts';
import { ROOT } from '../support/server.ts';

const run = promisify(execFile);

/**
 * `wrangler pages deploy` compiles and uploads, as Pages Functions, the `functions/` folder of the
 * directory it runs in (there is no option to point it elsewhere), and `_worker.js` in the folder
 * it uploads. The root's `functions/` is the backend's source, not Pages Functions, so
 * docs/static-hosts.md deploys from the build's output folder. `wrangler pages functions build` looks in the same two
 * places; it is run here as the deploy would be, offline, with its output in a temporary folder.
 */
const scratch = mkdtempSync(path.join(tmpdir(), 'pages-functions-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** How `wrangler pages functions build` ended, run in `cwd` for the static files in `directory`. */
async function pagesFunctionsBuild(cwd: string, directory: string): Promise<{ code: number; output: string }> {
  const home = mkdtempSync(path.join(scratch, 'home-'));
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    WRANGLER_LOG_PATH: home,
    WRANGLER_SEND_METRICS: 'false',
    NO_COLOR: '1',
    CI: '1',
  };
  const args = ['pages', 'functions', 'build', '--build-output-directory', directory];
  const outdir = path.join(home, 'out');
  try {
    const { stdout, stderr } = await run(path.join(ROOT, 'node_modules/.bin/wrangler'), [...args, '--outdir', outdir], {
      cwd,
      env,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout: string; stderr: string };
    return { code: code ?? -1, output: stdout + stderr };
  }
}

/** The Cloudflare Pages deploy of docs/static-hosts.md: where it runs (`cd`) and the folder it uploads. */
function readmePagesDeploy(): { cwd: string; directory: string } {
  const commands = [...readmeCommands()]
    .filter(([section]) => section.startsWith('docs/static-hosts.md: '))
    .flatMap(([, shown]) => shown)
    .filter((command) => command.includes('wrangler pages deploy'));
  expect(commands).toHaveLength(1);
  const [, cd = '.', directory] = /^(?:cd (\S+) && )?npx wrangler pages deploy (\S+)$/.exec(commands[0]!) ?? [];
  if (directory === undefined) throw new Error(`Not a wrangler pages deploy as expected: ${commands[0]}`);
  return { cwd: path.resolve(ROOT, cd), directory };
}

describe('the Cloudflare Pages deploy in docs/static-hosts.md', () => {
  it('finds no Pages Functions where it runs, where the same deploy from the root would take the backend for them', async () => {
    const deploy = readmePagesDeploy();
    const uploaded = path.resolve(deploy.cwd, deploy.directory);
    expect(existsSync(path.join(uploaded, 'index.html')), `${uploaded} is the build's output: npm run build`).toBe(
      true,
    );
    // wrangler's exit code 157: no `functions/` where it runs, and no `_worker.js` in what it uploads.
    const readme = await pagesFunctionsBuild(deploy.cwd, deploy.directory);
    expect(readme.output).toContain('Could not find anything to build');
    expect(readme.code).toBe(157);

    // The guard matters: from the root wrangler takes the backend's folder as its Functions
    // directory and compiles each of its .ts and .js files (esbuild) to read their exports. Today
    // it stops at "no routes" (exit 156) because no file there exports a Pages handler
    // (`onRequest`, `onRequestGet`, ...); one that did would be built and deployed as a route.
    const fromRoot = await pagesFunctionsBuild(ROOT, path.relative(ROOT, uploaded));
    expect(fromRoot.output).not.toContain('Could not find anything to build');
    expect(fromRoot.output).toMatch(/No routes found when building Functions directory: functions|Compiled Worker/);
    expect(fromRoot.code).not.toBe(157);
  });
});
