import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

const run = promisify(execFile);
const copies: string[] = [];

/** A copy of the project with one extra project file (and its images), synced by Astro as a build would. */
async function syncWith(
  fileName: string,
  text: string,
  images: Record<string, string> = {},
): Promise<{ code: number; output: string; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-content-'));
  copies.push(dir);
  for (const entry of ['content', 'src', 'public', 'functions', 'astro.config.mjs', 'package.json', 'tsconfig.json']) {
    cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'content/projects', fileName), text);
  for (const [image, content] of Object.entries(images)) {
    mkdirSync(path.dirname(path.join(dir, 'content/projects', image)), { recursive: true });
    writeFileSync(path.join(dir, 'content/projects', image), content);
  }
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, 'node_modules/astro/astro.js'), 'sync'], {
      cwd: dir,
      env,
    });
    return { code: 0, output: withoutColors(stdout + stderr), dir };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, output: withoutColors(failure.stdout + failure.stderr), dir };
  }
}

function withoutColors(text: string): string {
  // Terminal colour codes split "domain: Required" when CI forces colours on.
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe('the project schema is enforced at build', () => {
  it('fails on a bad file and names the file and each bad field', async () => {
    const { code, output } = await syncWith(
      'broken-project.md',
      '---\ntitle: Broken\ndescription: A project whose front matter misses its domain.\nstack: [Go]\nyear: "soon"\n---\nBody.\n',
    );
    expect(code).not.toBe(0);
    expect(output).toContain('broken-project.md');
    expect(output).toMatch(/domain\W+Required/);
    expect(output).toMatch(/year\W+Expected type `"number"`/);
  });

  it('refuses unknown fields and non-https links', async () => {
    const { code, output } = await syncWith(
      'odd-project.md',
      '---\ntitle: Odd one\ndescription: A project with a typo in its front matter keys.\nstack: [Go]\ndomain: web\nyear: 2020\nrepo: https://x.example\nwebsite: http://x.example\n---\nBody.\n',
    );
    expect(code).not.toBe(0);
    expect(output).toContain('odd-project.md');
    expect(output).toContain('repo');
    expect(output).toMatch(/website\W+must be an https:\/\/ URL/);
  });
});

describe('an SVG image in the front matter', () => {
  const drawing =
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200"><rect width="400" height="200" fill="#c00"/></svg>';
  const project = (src: string) =>
    `---\ntitle: Drawn\ndescription: A project whose cover is an SVG drawing.\nstack: [Go]\ndomain: web\nyear: 2020\ncover: {src: ${src}, alt: A red field}\n---\nBody.\n`;

  it('reaches the image pipeline as the PNG rendered from it, never as the SVG', async () => {
    const { code, output, dir } = await syncWith('drawn.md', project('./drawn/cover.svg'), {
      'drawn/cover.svg': drawing,
    });
    expect(code, output).toBe(0);
    const assets = readFileSync(path.join(dir, '.astro/content-assets.mjs'), 'utf8');
    expect(assets).toMatch(
      /"\.\.\/\.\.\/\.astro\/rendered-svg\/cover-[0-9a-f]{16}\.png\?[^"]*importer=content%2Fprojects%2Fdrawn\.md"/,
    );
    expect(assets).not.toContain('cover.svg');
  });

  it('fails the build, naming the project file and the image, when the SVG cannot be rendered', async () => {
    const { code, output } = await syncWith('scribbled.md', project('./scribbled/cover.svg'), {
      'scribbled/cover.svg': '<svg xmlns="http://www.w3.org/2000/svg"><rect',
    });
    expect(code).not.toBe(0);
    expect(output).toContain('scribbled.md');
    expect(output).toContain('./scribbled/cover.svg cannot be rendered to PNG');
  });
});

describe('the content check that npm run build runs first', () => {
  it('reports every bad file with its fields and rules, and exits 1', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-content-'));
    copies.push(dir);
    cpSync(path.join(ROOT, 'content'), path.join(dir, 'content'), { recursive: true });
    writeFileSync(path.join(dir, 'content/site.json'), '{"name": "Ada", "siteUrl": "nope"}');
    writeFileSync(path.join(dir, 'content/projects/a-yaml.md'), '---\ntitle: "unterminated\n---\n');
    writeFileSync(path.join(dir, 'content/projects/b-schema.md'), '---\ntitle: B\nyear: 20\n---\n');
    writeFileSync(
      path.join(dir, 'content/projects/c-bitmap.md'),
      '---\ntitle: Bitmap\ndescription: A project whose cover is in a format the build cannot read.\nstack: [Go]\ndomain: web\nyear: 2020\ncover: {src: ./c-bitmap.bmp, alt: A bitmap}\n---\n',
    );
    writeFileSync(path.join(dir, 'content/projects/c-bitmap.bmp'), '');
    const { code, output } = await runCheck(dir);
    expect(code).toBe(1);
    expect(output).toContain('content/site.json is not valid:\n  - tagline: is required');
    expect(output).toContain('  - siteUrl: must be an absolute http:// or https:// URL');
    expect(output).toMatch(
      /content\/projects\/a-yaml\.md is not valid:\n {2}- front matter: is not valid YAML at line 2/,
    );
    expect(output).toContain('content/projects/b-schema.md is not valid:\n  - title: must be at least 3 characters');
    expect(output).toContain('  - year: must be at least 1990');
    expect(output).toContain(
      'content/projects/c-bitmap.md is not valid:\n  - cover.src: must name a .png, .jpg, .jpeg, .webp, .avif, .gif, .tiff or .svg file (the accepted image formats)',
    );
    expect(output).toContain('4 content file(s) to fix');
    expect(output).not.toContain('node_modules');
  });

  it('passes the repository’s own content silently', async () => {
    expect(await runCheck(ROOT)).toEqual({ code: 0, output: '' });
  });
});

async function runCheck(root: string): Promise<{ code: number; output: string }> {
  const script = path.join(ROOT, 'scripts/check-content.ts');
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', script, '--root', root], { cwd: ROOT });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, output: failure.stdout + failure.stderr };
  }
}
