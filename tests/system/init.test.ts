import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSite } from '../../functions/config/site.ts';
import { checkContent, projectProblems } from '../../functions/content/check-content.ts';
import { ROOT } from '../support/server.ts';

const run = promisify(execFile);
const ADA = ['--name', 'Ada Lovelace', '--url', 'https://ada.example', '--email', 'ada@ada.example'];
let root: string;

/** `npm run init` as a user runs it, on a copy of the repository's content/ (the real one is never touched). */
function init(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { SITE_URL: _unset, ...env } = process.env;
  return initWith(env, ...args);
}

async function initWith(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts/init.ts'), '--root', root, ...args],
      { cwd: ROOT, env },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

function read(file: string): string {
  return readFileSync(path.join(root, file), 'utf8');
}

function snapshot(): Map<string, string> {
  return new Map(
    readdirSync(path.join(root, 'content'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.includes('.'))
      .map((file) => [file, readFileSync(path.join(root, 'content', file), 'latin1')]),
  );
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'portfolio-init-'));
  cpSync(path.join(ROOT, 'content'), path.join(root, 'content'), { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('npm run init', () => {
  it('turns the example into the owner’s portfolio, valid by the schemas the build uses', async () => {
    const docsBefore = readdirSync(path.join(root, 'content/docs'), { recursive: true });
    const { code, stdout } = await init(...ADA);
    expect(code).toBe(0);
    expect(parseSite(JSON.parse(read('content/site.json')))).toMatchObject({
      name: 'Ada Lovelace',
      siteUrl: 'https://ada.example',
      email: 'ada@ada.example',
      links: [],
    });
    expect(readdirSync(path.join(root, 'content/projects'))).toEqual(['my-first-project.md']);
    expect(projectProblems(read('content/projects/my-first-project.md'), path.join(root, 'content/projects'))).toEqual(
      [],
    );
    expect(checkContent(root)).toEqual([]);
    // The documentation pages describe the service, so every one stays.
    expect(readdirSync(path.join(root, 'content/docs'), { recursive: true })).toEqual(docsBefore);
    expect(stdout).toContain('deleted content/projects/fika-booking.md');
    expect(stdout).toContain('content/docs/developers.md');
    expect(stdout).toMatch(/SITE_URL=\S+ npm run build/);
  });

  it('changes nothing when run again with the same values, and says so', async () => {
    const before = snapshot();
    const { code, stdout } = await init(...ADA);
    expect(code).toBe(0);
    expect(stdout).toMatch(/nothing to change/);
    expect(snapshot()).toEqual(before);
  });

  it('warns when SITE_URL in this shell overrides the siteUrl it writes, and only then', async () => {
    const overridden = await initWith({ ...process.env, SITE_URL: 'https://staging.example' }, ...ADA);
    expect(overridden.code).toBe(0);
    expect(overridden.stdout).toContain(
      'SITE_URL is set in this shell to https://staging.example. It overrides siteUrl',
    );
    const same = await initWith({ ...process.env, SITE_URL: 'https://ada.example/' }, ...ADA);
    expect(same.stdout).not.toContain('SITE_URL is set');
  });

  it('keeps the starter project once the owner edits it', async () => {
    const edited = read('content/projects/my-first-project.md').replace('My first project', 'Analytical Engine');
    writeFileSync(path.join(root, 'content/projects/my-first-project.md'), edited);
    expect((await init(...ADA)).stdout).toMatch(/nothing to change/);
    expect(read('content/projects/my-first-project.md')).toBe(edited);
  });

  it('refuses to overwrite an edited site.json, naming it and changing nothing', async () => {
    const before = snapshot();
    const { code, stderr } = await init('--name', 'Grace Hopper', '--url', 'https://grace.example');
    expect(code).toBe(1);
    expect(stderr).toContain('content/site.json');
    expect(stderr).toContain('--force');
    expect(snapshot()).toEqual(before);
  });

  it('overwrites it with --force, and keeps the owner’s own projects', async () => {
    const { code } = await init('--name', 'Grace Hopper', '--url', 'https://grace.example', '--force');
    expect(code).toBe(0);
    expect(parseSite(JSON.parse(read('content/site.json'))).name).toBe('Grace Hopper');
    expect(read('content/projects/my-first-project.md')).toContain('Analytical Engine');
  });

  it('refuses to delete an example project the owner edited, unless --force', async () => {
    cpSync(path.join(ROOT, 'content/projects/typeshift.md'), path.join(root, 'content/projects/typeshift.md'));
    const edited = path.join(root, 'content/projects/typeshift.md');
    writeFileSync(edited, `${readFileSync(edited, 'utf8')}\nMy own notes.\n`);
    const refused = await init('--name', 'Grace Hopper', '--url', 'https://grace.example');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('content/projects/typeshift.md');
    expect(existsSync(edited)).toBe(true);
    const forced = await init('--name', 'Grace Hopper', '--url', 'https://grace.example', '--force');
    expect(forced.code).toBe(0);
    expect(existsSync(edited)).toBe(false);
  });

  it('names the option whose value site.json cannot hold', async () => {
    const { code, stderr } = await init('--name', 'Ada', '--url', 'ada.example');
    expect(code).toBe(1);
    expect(stderr).toMatch(/--url must be an absolute http:\/\/ or https:\/\/ URL/);
  });

  it('never writes or deletes through a symbolic link, even with --force, and says which', async () => {
    const own = root;
    root = mkdtempSync(path.join(tmpdir(), 'portfolio-init-'));
    const outside = mkdtempSync(path.join(tmpdir(), 'portfolio-outside-'));
    try {
      cpSync(path.join(ROOT, 'content'), path.join(root, 'content'), { recursive: true });
      // site.json as the example has it, but kept outside the repository; the projects folder too.
      const siteOutside = path.join(outside, 'site.json');
      cpSync(path.join(root, 'content/site.json'), siteOutside);
      rmSync(path.join(root, 'content/site.json'));
      symlinkSync(siteOutside, path.join(root, 'content/site.json'));
      const projectsOutside = path.join(outside, 'projects');
      cpSync(path.join(root, 'content/projects'), projectsOutside, { recursive: true });
      rmSync(path.join(root, 'content/projects'), { recursive: true });
      symlinkSync(projectsOutside, path.join(root, 'content/projects'));
      /** Every file under `outside` with its bytes. */
      const outsideFiles = () =>
        readdirSync(outside, { recursive: true, encoding: 'utf8' })
          .filter((file) => lstatSync(path.join(outside, file)).isFile())
          .sort()
          .map((file) => [file, readFileSync(path.join(outside, file), 'latin1')]);
      const outsideBefore = outsideFiles();

      for (const force of [[], ['--force']]) {
        const { code, stdout, stderr } = await init(...ADA, ...force);
        expect(code, stdout).toBe(1);
        expect(stderr).toContain('does not write through symbolic links');
        expect(stderr).toContain(`content/site.json -> ${siteOutside}`);
        expect(stderr).toContain(`content/projects -> ${projectsOutside}`);
        expect(stdout).toBe('');
      }
      expect(outsideFiles()).toEqual(outsideBefore);
      expect(lstatSync(path.join(root, 'content/site.json')).isSymbolicLink()).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
      root = own;
    }
  });
});
