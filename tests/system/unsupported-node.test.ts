import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRIMARY_MAJOR } from '../../scripts/fetch-node.mjs';
import { freshDataDir, ROOT, SERVER_ENTRY } from '../support/server.ts';

/**
 * On a Node.js older than package.json's `engines.node`, `npm start`, `npm test` and the server
 * entry stop at once with one line (scripts/check-node.mjs). The machine's own Node.js (Debian's,
 * /usr/bin/node) is such a Node.js here; on it the SQLite addon would crash the process.
 */

const OLD_NODE = '/usr/bin/node';
const { engines } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const oldVersion = existsSync(OLD_NODE) ? execFileSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).trim() : '';
const minimum = /^>=(\d+)\.(\d+)/.exec(engines.node)!.slice(1).map(Number) as [number, number];
const [major, minor] = oldVersion.slice(1).split('.').map(Number) as [number, number];
const isOld = oldVersion !== '' && (major < minimum[0] || (major === minimum[0] && minor < minimum[1]));

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command with the old Node.js first on the PATH (so `node` in npm scripts is that one). */
function runWithOldNode(file: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Outcome> {
  const bin = mkdtempSync(path.join(tmpdir(), 'old-node-bin-'));
  symlinkSync(OLD_NODE, path.join(bin, 'node'));
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      // A hang-catcher only: the check answers at once, a server that got past it would keep running.
      { cwd, env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH}` }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * A checkout holding only package.json and the scripts the check needs: should the check let an
 * old Node.js through, `npm test` and `npm start` there fail at their first build step instead of
 * building (and testing) this checkout.
 */
function bareCheckout(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'unsupported-node-'));
  mkdirSync(path.join(dir, 'scripts'));
  cpSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  for (const script of ['check-node.mjs', 'fetch-node.mjs', 'start.mjs', 'source-hash.mjs'])
    cpSync(path.join(ROOT, 'scripts', script), path.join(dir, 'scripts', script));
  return dir;
}

/** The one line every refusal prints. */
function expectOneLineRefusal({ code, stderr }: Outcome): void {
  expect(code, stderr).toBe(1);
  const lines = stderr.split('\n').filter((line) => line.trim() !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toBe(
    `This project needs Node.js ${engines.node}; this is Node.js ${oldVersion}. ` +
      `Run \`source scripts/use-node.sh\` to use the pinned Node.js ${PRIMARY_MAJOR} LTS in this shell, or install Node.js ${PRIMARY_MAJOR} LTS.`,
  );
}

describe.runIf(isOld)(`on the machine's Node.js ${oldVersion}, older than engines.node`, () => {
  it('npm start stops with one line and builds nothing', async () => {
    const outcome = await runWithOldNode('npm', ['start'], bareCheckout());
    expectOneLineRefusal(outcome);
    expect(outcome.stdout).not.toContain('start: building');
  });

  it('npm test stops with one line before the build', async () => {
    const outcome = await runWithOldNode('npm', ['test'], bareCheckout());
    expectOneLineRefusal(outcome);
    // npm announces each script it runs with a "> name@version script" line.
    expect(outcome.stdout).toMatch(/^> agent-ready-portfolio@\S+ test$/m);
    expect(outcome.stdout).not.toMatch(/^> agent-ready-portfolio@\S+ build$/m);
  });

  it('the server entry stops with one line before SQLite loads', async () => {
    const outcome = await runWithOldNode(OLD_NODE, [SERVER_ENTRY], ROOT, { PORT: '0', DATA_DIR: freshDataDir() });
    expectOneLineRefusal(outcome);
    expect(outcome.stdout).toBe('');
  });
});
